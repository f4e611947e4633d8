"""`RecordConstructorArgs`: keep the keyword arguments an object was built with.

Wrappers record theirs so that ``env.spec.additional_wrappers`` can say how to build the
same stack again (`make(env.spec)`).
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["RecordConstructorArgs"]


class RecordConstructorArgs:
    """Stores the keyword arguments given to `__init__` as ``self._saved_kwargs``.

    Only the first call counts, so a subclass that records its own arguments before calling
    its parent's constructor is not overwritten by the parent's. The arguments are deep
    copied unless ``_disable_deepcopy=True`` (for arguments that cannot be copied, such as
    an env or a lock).
    """

    _saved_kwargs: dict[str, Any]

    def __init__(self, *, _disable_deepcopy: bool = False, **kwargs: Any) -> None:
        if hasattr(self, "_saved_kwargs"):
            return
        saved = kwargs if _disable_deepcopy else copy.deepcopy(kwargs)
        object.__setattr__(self, "_saved_kwargs", saved)
