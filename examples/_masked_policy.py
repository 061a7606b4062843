"""The masked linear policy of the examples (numpy only), shared by
``train_reinforce.py`` (one seat against bots) and ``selfplay_pool.py``
(self-play against a pool of its own past snapshots).

The policy is ``softmax(W @ observation + b)`` restricted to the action mask,
trained by REINFORCE with Adam. Not a runnable example: the leading underscore
says so.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


def softmax(logits: Array) -> Array:
    """The probabilities of ``logits`` (shifted by their maximum: no overflow)."""
    e = np.exp(logits - logits.max())
    return e / e.sum()


class LinearPolicy:
    """Masked softmax over ``W @ obs + b``, trained with Adam."""

    def __init__(self, obs_size: int, actions: int, lr: float, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.w: Array = np.zeros((actions, obs_size))
        self.b: Array = np.zeros(actions)
        self.lr = lr
        self.m = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self.v = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self.t = 0

    def probs(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Array:
        # Only the legal rows: a few dot products instead of the whole matrix.
        legal = np.flatnonzero(mask)
        p = np.zeros(len(mask))
        p[legal] = softmax(self.w[legal] @ obs + self.b[legal])
        return p

    def act(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> tuple[int, Array]:
        p = self.probs(obs, mask)
        return int(self.rng.choice(len(p), p=p)), p

    def update(self, obs: Array, probs: Array, actions: list[int], advantage: float) -> None:
        """One REINFORCE step: the gradient of sum(log pi(a_t)) times the advantage."""
        onehot = np.zeros_like(probs)
        onehot[np.arange(len(actions)), actions] = 1.0
        delta = (onehot - probs) * (advantage / len(actions))  # (T, A)
        grads = [delta.T @ obs, delta.sum(axis=0)]
        self.t += 1
        for i, (param, g) in enumerate(zip((self.w, self.b), grads, strict=True)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            m_hat = self.m[i] / (1 - 0.9**self.t)
            v_hat = self.v[i] / (1 - 0.999**self.t)
            param += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)  # ascent

    def grow(self, actions: int) -> None:
        """Room for ``actions`` rows (never fewer than now). The new rows are zero
        with zero Adam moments, which is exactly what a row holds in a full-size
        policy as long as its action has never been legal (its gradient is then
        exactly 0, so Adam never moves it). So a policy grown on demand, row by row
        as actions first become legal, computes what the full-size one does: the
        way to train on Teratozoic's 74,212 actions, of which a game offers a few
        hundred."""
        extra = actions - len(self.b)
        if extra <= 0:
            return

        def padded(a: Array) -> Array:
            return np.concatenate([a, np.zeros((extra, *a.shape[1:]))])

        self.w, self.b = padded(self.w), padded(self.b)
        self.m = [padded(a) for a in self.m]
        self.v = [padded(a) for a in self.v]
