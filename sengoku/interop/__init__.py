"""Research interoperability: Sengoku games in OpenSpiel, PettingZoo and Gymnasium.

Each adapter is an optional extra and imports its library only when imported itself:

* :mod:`sengoku.interop.openspiel` - ``pip install 'sengoku[openspiel]'``;
* :mod:`sengoku.interop.pettingzoo` - ``pip install 'sengoku[pettingzoo]'`` (AEC environments);
* :mod:`sengoku.interop.gymnasium` - ``pip install 'sengoku[pettingzoo]'`` (one-player games,
  such as Sashimono's solo mode against the Kagemusha, as Gymnasium environments).

Observations come from :mod:`sengoku.interop.encoders`, built only from ``view(seat)``.
"""
