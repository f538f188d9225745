"""A learned evaluation trained by self-play: the network (numpy), its self-play data, its
training (PyTorch, the optional ``train`` extra) and the agent that searches with it.

``sengoku train GAME`` runs the whole pipeline (:mod:`sengoku.ai.learned.train`); playing
(``learned`` agent) needs numpy only.
"""

from sengoku.ai.learned.model import Inputs, ValueNet, default_weights, load_net

__all__ = ["Inputs", "ValueNet", "default_weights", "load_net"]
