"""The deal catalogs in assets/deals and how the game picks from them."""

from __future__ import annotations

import copy
import logging
import random
import shutil
from pathlib import Path

import pytest

from engine import Game, parse_code
from engine.catalog import (
    CATALOG_DIR,
    PICKS,
    Catalog,
    build,
    load,
    main,
    parse,
    pick,
    redecide,
    regrade,
    save,
)
from engine.rules import ALL_RULES, Rules
from engine.search.levels import LEVELS, grade
from engine.search.solver import solve

pytestmark = pytest.mark.unit

SHIPPED = sorted(CATALOG_DIR.glob("*.txt"))


def test_catalogs_are_shipped() -> None:
    assert {p.stem for p in SHIPPED} >= {"RU1-C", "SH1-C4"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_catalog_parses_cleanly(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    catalog = parse(text, path.stem)
    assert catalog.bad_lines == 0
    assert text.startswith("# Winnable deals of " + path.stem)
    assert catalog.next > catalog.first
    listed = [code for codes in catalog.levels.values() for code in codes]
    assert len(listed) == len(set(listed)) <= catalog.won
    assert catalog.target >= 500  # each level lists the first 500 (or more) of its scan
    assert all(n <= catalog.target for n in catalog.counts().values())
    for code in listed:
        rules, number = parse_code(code)
        assert rules.key == path.stem and catalog.first <= number < catalog.next


@pytest.mark.system  # minutes of solving
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_sample_is_really_winnable_and_graded_as_listed(path: Path) -> None:
    catalog = load(path.stem)
    rng = random.Random(path.stem)  # a fixed sample per file
    for level, codes in catalog.levels.items():
        for code in rng.sample(codes, min(2, len(codes))):
            game = Game.from_code(code)
            result = solve(game, time_limit=10)
            assert result.status == "won", code
            replay = game.copy()
            for move in result.moves:
                replay.play(move)
            assert replay.is_won
            assert grade(game).level == level, code


def test_pick_takes_the_level_from_the_catalog(tmp_path: Path) -> None:
    (tmp_path / "RU1-C.txt").write_text(
        "# test\nRU1-C-AAAAAAS easy\nRU1-C-AAAAACC medium\nRU1-C-AAAAAAO hard\n"
    )
    rng = random.Random(1)
    assert pick("RU1-C", "easy", rng, directory=tmp_path) == "RU1-C-AAAAAAS"
    assert pick("RU1-C", "hard", rng, directory=tmp_path) == "RU1-C-AAAAAAO"
    winnable = {pick("RU1-C", "winnable", rng, directory=tmp_path) for _ in range(40)}
    assert winnable == {"RU1-C-AAAAAAS", "RU1-C-AAAAACC", "RU1-C-AAAAAAO"}
    code = pick("RU1-C", "any", rng, directory=tmp_path)
    assert parse_code(code)[0].key == "RU1-C"


def test_pick_is_reproducible_for_a_seeded_rng() -> None:
    codes = [pick("SH1-C4", "medium", random.Random(5)) for _ in range(2)]
    assert codes[0] == codes[1]
    assert codes[0] in load("SH1-C4").levels["medium"]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (None, "no deal catalog"),
        ("\x00\x01 garbage\nnot a catalog\n", "unusable"),
        ("# only comments\n", "has no easy deals"),
        ("RU1-C-AAAAACC medium\n", "has no easy deals"),
    ],
)
def test_pick_falls_back_to_a_random_deal_with_a_clear_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, content: str | None, why: str
) -> None:
    if content is not None:
        (tmp_path / "RU1-C.txt").write_text(content)
    with caplog.at_level(logging.WARNING, logger="solitaire.catalog"):
        code = pick("RU1-C", "easy", random.Random(3), directory=tmp_path)
    assert parse_code(code)[0].key == "RU1-C"
    assert why in caplog.text and code in caplog.text


def test_damaged_lines_are_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "RU1-C.txt").write_text(
        "RU1-C-AAAAAAS easy\nSH1-C4-AAAAAAC easy\nRU1-C-AAAAAAS easy\nRU1-C-!!! hard\nxyz\n"
    )
    with caplog.at_level(logging.WARNING, logger="solitaire.catalog"):
        assert pick("RU1-C", "easy", random.Random(0), directory=tmp_path) == "RU1-C-AAAAAAS"
    assert "skipped 4 damaged lines" in caplog.text


def test_pick_refuses_unknown_rules_and_levels() -> None:
    with pytest.raises(ValueError, match="unknown rule set"):
        pick("RU2-C", "easy", random.Random(0))
    with pytest.raises(ValueError, match="unknown level"):
        pick("RU1-C", "expert", random.Random(0))
    assert set(PICKS) == {*LEVELS, "winnable", "any"}


def test_build_resumes_where_it_stopped(tmp_path: Path) -> None:
    first = build("SH1-C2", count=12, jobs=1, time_limit=30, node_limit=5000, directory=tmp_path)
    assert (first.first, first.next) == (0, 12)
    again = build("SH1-C2", count=24, jobs=1, directory=tmp_path)  # the file's time limit
    assert (again.first, again.next) == (0, 24)
    assert again.won + again.lost + again.unknown == 24
    fresh = build("SH1-C2", count=24, jobs=1, node_limit=5000, directory=tmp_path / "b")
    assert fresh.levels == again.levels  # resuming gives what one run gives
    text = (tmp_path / "SH1-C2.txt").read_text()
    assert "--time-limit 30 --node-limit 5000" in text and "scanned: 0 24" in text
    assert "node_limit=5000" in text and load("SH1-C2", tmp_path).node_limit == 5000
    with pytest.raises(ValueError, match="node-limit 5000"):
        build("SH1-C2", count=30, jobs=1, node_limit=9000, directory=tmp_path)
    assert main(["build", "--rules", "SH1-C2", "--count", "0"]) == 2
    assert main(["stats", "--dir", str(tmp_path)]) == 0


@pytest.fixture(scope="module")
def wide_scan(tmp_path_factory: pytest.TempPathFactory) -> tuple[Catalog, Path]:
    """RU1-C's first 300 deals scanned for 50 deals a level, and its directory: what the level
    target and regrade checks compare with (minutes of solving: made once for both)."""
    directory = tmp_path_factory.mktemp("wide")
    return build("RU1-C", count=300, jobs=1, target=50, directory=directory), directory


@pytest.mark.system  # minutes of solving
def test_each_level_takes_the_first_deals_up_to_the_target(
    tmp_path: Path, wide_scan: tuple[Catalog, Path]
) -> None:
    """A level stops taking deals once it holds --target; the scan stops when all are full."""
    wide = wide_scan[0]
    capped = build("RU1-C", count=300, jobs=2, target=2, directory=tmp_path / "capped")
    for level, codes in capped.levels.items():
        assert codes == wide.levels[level][:2]
    assert capped.next <= wide.next and capped.won <= wide.won
    assert all(n == 2 for n in capped.counts().values()) or capped.next == 300
    assert "target=2" in (tmp_path / "capped" / "RU1-C.txt").read_text()
    with pytest.raises(ValueError, match="--target 2"):
        build("RU1-C", count=400, jobs=1, target=3, directory=tmp_path / "capped")


@pytest.mark.system  # minutes of solving
def test_regrade_gives_what_a_new_scan_gives(
    tmp_path: Path, wide_scan: tuple[Catalog, Path]
) -> None:
    """After engine.search.levels changes, `regrade` grades the listed deals again without solving
    them: the file must match what a new scan lists."""
    fresh = build("RU1-C", count=300, jobs=1, target=3, directory=tmp_path / "fresh")
    shutil.copytree(wide_scan[1], tmp_path / "stale")  # the wide scan, graded again below
    stale = copy.deepcopy(wide_scan[0])
    every = [c for codes in stale.levels.values() for c in codes]
    stale.levels = {"easy": [], "medium": [], "hard": every}  # graded by an older rule
    stale.target = 3
    save(stale, tmp_path / "stale")
    again = regrade("RU1-C", jobs=2, directory=tmp_path / "stale")
    for level, codes in fresh.levels.items():
        assert again.levels[level] == codes
    assert load("RU1-C", tmp_path / "stale").levels == again.levels
    assert (
        main(["regrade", "--rules", "RU1-C", "--jobs", "1", "--dir", str(tmp_path / "stale")]) == 0
    )


def test_every_rule_set_has_its_title_in_its_catalog_header() -> None:
    heads = {r.key: Catalog(r.key).text().splitlines()[0] for r in ALL_RULES}
    assert heads == {
        "RU1-C": "# Winnable deals of RU1-C: Russian Solitaire, classic (same suit).",
        "RU1-R": "# Winnable deals of RU1-R: Russian Solitaire, relaxed (any suit).",
        "SH1-C4": "# Winnable deals of SH1-C4: Seahaven Towers, 4 free cells.",
        "SH1-C2": "# Winnable deals of SH1-C2: Seahaven Towers, 2 free cells.",
        "SH1-C1": "# Winnable deals of SH1-C1: Seahaven Towers, 1 free cell.",
    }
    for path in CATALOG_DIR.glob("*.txt"):  # the shipped files say the same
        assert path.read_text(encoding="utf-8").splitlines()[0] == heads[path.stem]


def test_a_rule_set_added_in_data_has_a_title_from_the_registry(seahaven_3: Rules) -> None:
    head = Catalog("SH1-C3").text().splitlines()[0]
    assert head == "# Winnable deals of SH1-C3: Seahaven Towers, 3 free cells."


@pytest.mark.system  # minutes of solving
def test_redecide_gives_what_a_new_scan_with_more_positions_gives(tmp_path: Path) -> None:
    """`redecide` solves again only the deals a scan left unknown: the catalog must then be
    what a scan with the larger node limit gives, whether the file records its unknown deals
    or (an older file) they are found again by the honest player's plays."""
    small = build("RU1-R", count=28, jobs=1, node_limit=60, target=2, directory=tmp_path / "a")
    assert small.unknowns == [10, 27]  # 60 positions leave two deals undecided
    text = (tmp_path / "a" / "RU1-R.txt").read_text()
    assert "# unknown: 10 27" in text
    old = "".join(line for line in text.splitlines(True) if "unknown" not in line.split(":")[0])
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "RU1-R.txt").write_text(old)
    assert load("RU1-R", tmp_path / "b").unknowns is None
    fresh = build("RU1-R", count=28, jobs=1, node_limit=20_000, target=2, directory=tmp_path)
    assert fresh.unknown == 0 and "RU1-R-AAAAAA3" in fresh.levels["medium"]  # deal 27
    for where in ("a", "b"):
        again = redecide("RU1-R", node_limit=20_000, directory=tmp_path / where)
        assert again.levels == fresh.levels
        assert (again.won, again.lost, again.unknown) == (fresh.won, fresh.lost, 0)
        reread = load("RU1-R", tmp_path / where)
        assert reread.levels == fresh.levels and reread.unknowns == []
        assert reread.redecided == 20_000 and not (tmp_path / where / "RU1-R.honest").exists()
    assert main(["redecide", "--rules", "RU1-R", "--node-limit", "0"]) == 2
