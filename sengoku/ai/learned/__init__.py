"""A learned evaluation trained by self-play: the network (numpy) and the agent that searches
with it. Its self-play data and training (PyTorch, the optional ``train`` extra) run on the
arena's process pool, so they live there (:mod:`sengoku.arena.training_data`,
:mod:`sengoku.arena.training`: ``sengoku train GAME``); playing needs numpy only.
"""

from sengoku.ai.learned.model import (
    Inputs,
    ValueNet,
    default_policy,
    default_weights,
    load_net,
)

__all__ = ["Inputs", "ValueNet", "default_policy", "default_weights", "load_net"]
