"""Names at Gymnasium's `gymnasium.experimental` paths, for code ported from Gymnasium."""
