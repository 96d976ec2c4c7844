"""The Hypothesis profile mutant runs use: the ci profile's settings with fewer examples and no
shrinking. A mutant needs one failing example to be killed; shrinking it to the smallest one only
makes the report nicer, and with a stateful game machine it can take minutes (the runner's clock
then calls the mutant a timeout instead of killed)."""

from __future__ import annotations

NAME = "mutation"
BASE = "ci"
MAX_EXAMPLES = 10
PHASES = ("explicit", "reuse", "generate")          # no "shrink"


def register() -> str:
    """Register the profile (after the suite's own profiles, which it starts from); its name."""
    from hypothesis import Phase, settings

    import properties.profiles  # noqa: F401  (registers the base profile)

    base = settings.get_profile(BASE)
    settings.register_profile(NAME, parent=base, max_examples=min(MAX_EXAMPLES, base.max_examples),
                              phases=tuple(Phase[p] for p in PHASES))
    return NAME


def key() -> str:
    """What the stored verdicts depend on in this profile (part of each clause's hash)."""
    return f"hypothesis profile {NAME}: {BASE} with max_examples<={MAX_EXAMPLES}, phases " + \
        ",".join(PHASES)
