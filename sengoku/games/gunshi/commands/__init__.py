"""The Command cards, one module each (rulebook, "Commands" and "Advanced Card Effects and
Clarifications"), with the rules every command shares in ``universal_rules.py`` and the
command in progress in ``command.py``."""
