"""Texts and languages (game/i18n.py, assets/locales/): the catalogs, wording, line breaks, text
that fits and is large enough."""
