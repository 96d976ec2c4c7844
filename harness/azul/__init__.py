"""Classic Azul's registry entry: where the shared harness finds classic Azul's parts."""

from properties.registry import GameEntry

GAME = GameEntry(
    name="azul",
    fixtures_dir="azul",
    players=(2, 3, 4),
    new_game="model.azul.start:start",
    invariants="properties.azul.hooks:state_invariants",
    step_invariants="properties.azul.hooks:step_invariants",
    incremental_invariants="properties.azul.hooks:incremental_invariants",
    invariant_table="properties.azul.hooks:INVARIANT_TABLE",
    policies="properties.azul.policy:POLICIES",
    phase_graph="model.azul.phases:phase_graph",
    step_bound="properties.azul.hooks:step_bound",
    implemented="model.azul.ruleset:IMPLEMENTED",
    combinations="properties.azul.hooks:COMBINATIONS",
    row_setups="properties.azul.hooks:ROW_SETUPS",
    fingerprint="model.azul.fingerprint:fingerprint",
    scores="properties.azul.hooks:scores",
    candidates="properties.azul.hooks:candidates",
    format_tiles="properties.azul.hooks:format_tiles",
    decided_by={"rounds where nobody took the marker from the centre": "azul.offer.marker-untaken"},
    renderers={"text": "model.azul.render:render"},
    scenarios="harness.azul.scenarios.api:API",
    search="properties.azul.predicates:SEARCH",
    machine_hooks="properties.azul.hooks:MACHINE_HOOKS",
    commands=("harness.azul.differential_command:differential_command",),
    peer_bench="harness.azul.peer_bench:run",
    progress_clauses=("azul.end.trigger", "azul.prep.continue"),
    mutation_piles=(("bag", "lid"),),           # harness/mutation/operators.py: OtherPile
    mutation_other_seat="((who + 1) % state.players)",  # OtherPlayer: the next seat
)
