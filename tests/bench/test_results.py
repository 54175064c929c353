"""Benchmarks run again replace their own sections of the last results and keep the others."""

from bench.__main__ import markdown, merged, section


def test_a_benchmark_run_again_replaces_its_section_in_place_and_says_when() -> None:
    def sec(title: str, figure: int) -> dict[str, object]:
        return {"title": title, "method": "m", "columns": ["x"], "rows": [[figure]],
                "targets": [{"goal": f"{title} goal", "measured": str(figure), "met": True,
                             "note": ""}], "raw": {}}

    old = {"machine": "m", "seconds": 100.0, "at": "2026-01-01 00:00 UTC", "refreshed": [],
           "sections": [sec("A", 1), sec("B", 2)]}
    new = {"machine": "m", "seconds": 5.0, "at": "2026-01-02 00:00 UTC", "refreshed": [],
           "sections": [sec("A", 3), sec("C", 4)]}
    data = merged(old, new)
    assert [(d["title"], d["rows"]) for d in data["sections"]] == [
        ("A", [[3]]), ("B", [[2]]), ("C", [[4]])]
    text = markdown([section(d) for d in data["sections"]], data["seconds"], data["at"],
                    data["refreshed"])
    assert "Measured 2026-01-01 00:00 UTC" in text and "in 100 s." in text
    assert "A, C again on 2026-01-02 00:00 UTC (5 s)." in text
    assert "| A goal | 3 | yes |" in text and "| B goal | 2 | yes |" in text
