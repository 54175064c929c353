"""Fair play (docs/fairness.md): the integrity signal, solver help, where attempts
came from, the review queue and `samedeal moderate`."""
