"""Policies for tests/rl/test_protocol.py, loaded by import path as a user's
would be: ``tests.rl.protocol_policies:Agent`` (an operator's agent) and
``bestiary.rl.policy:PolicyAgent:policy=tests.rl.protocol_policies:first_legal``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bestiary.rl.policy import policy_agent


def first_legal(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    """The smallest legal index, so a test can tell the policy's moves apart."""
    return int(np.flatnonzero(mask)[0])


def masked_out(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    """An index the mask forbids: the agent must refuse it, not correct it."""
    return int(np.flatnonzero(mask == 0)[0])


Agent = policy_agent(first_legal)
NOT_CALLABLE = 42
