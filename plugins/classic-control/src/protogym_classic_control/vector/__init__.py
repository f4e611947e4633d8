"""Native vector versions of the classic-control envs: numpy over all sub-envs at once.

Each module is named like its single-env twin (`vector.cartpole:CartPoleVectorEnv` beside
`cartpole:CartPoleEnv`) and is loaded only by `make_vec` through the spec's
`vector_entry_point`.
"""
