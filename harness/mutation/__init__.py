"""Clause-level mutation analysis: which code implements a clause (`extents`), small realistic
rule bugs planted there (`mutants`, generated with cosmic-ray's operators), the tests that bear on
the clause (`selection`), running them against each mutant in a throw-away copy of the project
(`runner`) and results stored by the hash of the clause's code and tests (`store`)."""
