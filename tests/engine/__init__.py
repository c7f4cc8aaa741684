"""The engine (engine/): rules, deals and codes, the solver and the honest player, finish, the
catalogs, the command line."""
