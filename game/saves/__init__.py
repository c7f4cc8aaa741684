"""Durable state: the state files, autosave, save checks, statistics, settings."""
