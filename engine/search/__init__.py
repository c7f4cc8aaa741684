"""The solver family: the searches that prove a deal winnable, grade it and hint."""
