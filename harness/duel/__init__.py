"""Azul Duel's registry entry: the one place the shared harness learns where Duel's parts live."""

from properties.registry import GameEntry

GAME = GameEntry(
    name="duel",
    fixtures_dir="duel",
    players=(2,),
    new_game="model.duel.game:start",
    invariants="properties.duel.hooks:state_invariants",
    step_invariants="properties.duel.hooks:step_invariants",
    incremental_invariants="properties.duel.hooks:incremental_invariants",
    invariant_table="properties.duel.hooks:INVARIANT_TABLE",
    policies="properties.duel.policy:POLICIES",
    default_policy="greedy",
    phase_graph="model.duel.phases:phase_graph",
    step_bound="properties.duel.bounds:step_bound",
    implemented="model.duel.ruleset:IMPLEMENTED",
    combinations="properties.duel.hooks:COMBINATIONS",
    row_setups="properties.duel.hooks:ROW_SETUPS",
    fingerprint="model.duel.fingerprint:fingerprint",
    scores="properties.duel.hooks:scores",
    candidates="model.duel.universe:candidate_actions",
    format_tiles="harness.duel.scenarios.notation:format_tiles",
    statistics="properties.duel.hooks:statistics",
    substep="properties.duel.hooks:substep",
    substeps="harness.duel.substeps:SUBSTEPS",
    scenarios="harness.duel.scenarios.api:API",
    search="properties.duel.predicates:SEARCH",
    machine_hooks="properties.duel.hooks:MACHINE_HOOKS",
    commands=("harness.duel.scenario_commands:scenario_command", "harness.duel.scenario_commands:show_command"),
    draws_label="plates drawn blind (turns by number drawn)",
    decided_by={"rounds where nobody took the Starting player tile": "duel.prep.untaken-start-tile"},
    progress_clauses=("duel.round.structure", "duel.end.after-round-5"),
    mutation_piles=(("tower", "bag"),),           # harness/mutation/operators.py: OtherPile
    mutation_other_seat="(1 - who)",  # OtherPlayer: the next seat
    renderers={"text": "model.duel.render:render_text", "svg": "harness.duel.board_svg:board_svg"},
)
