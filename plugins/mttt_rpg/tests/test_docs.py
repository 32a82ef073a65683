"""The docs page: the annotated round is generated from a real scripted game and kept up to date."""

from pathlib import Path

from wargamekit_mttt_rpg.example_round import annotated_round, example_game

PAGE = Path(__file__).resolve().parents[3] / "docs" / "rulesets" / "mttt_rpg.md"


def test_annotated_round_in_the_docs_is_the_generated_one():
    """插入阶段: the docs' example round is exactly what the scripted game logs."""
    text = PAGE.read_text(encoding="utf-8")
    block = text.split("<!-- example-round -->\n```text\n", 1)[1].split("```", 1)[0]
    assert block == annotated_round()


def test_example_round_has_an_interrupt_chain_of_three():
    """插入阶段: the example round pushes three items before any resolves, and one fizzles."""
    lines = annotated_round().splitlines()
    assert any("(stack depth 3)" in line for line in lines)
    order = [
        i
        for i, line in enumerate(lines)
        if line.endswith(("resolves", "fizzles: countered"))
        and line.startswith(("Sayo: Severing", "Witch of Thorns: Dark", "Akari: Ribbon"))
    ]
    assert [lines[i].split(":")[0] for i in order] == ["Sayo", "Witch of Thorns", "Akari"]
    assert example_game().state.unit("witch").initiative == 16  # the failed decisive attack
