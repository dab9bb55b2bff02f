"""The validation page: current with its results file, and its pieces at small scale (the clip's free
slides in the court's frame and its script, the first-miss test, the rounds' figures, the sources,
the court speeds)."""

from __future__ import annotations

import csv
import json
import math
import shutil
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from shuffle_sim.calibrate import fit_tracks, read_tracks
from shuffle_sim.calibrate.forward import slide_distance
from shuffle_sim.court import load_court
from shuffle_sim.validation.court_speeds import court_speed_rows
from shuffle_sim.validation.crokinole import (
    first_miss_expected,
    first_miss_test,
    pooled,
    read_misses,
    round_figures,
)
from shuffle_sim.validation.results import DOCS, FOLDER, PAGE, RESULTS, check_page, write_page
from shuffle_sim.validation.sources import load_sources, raw_file, round_reference
from shuffle_sim.validation.tracked_clip import (
    CALIBRATED_REACH,
    CLIP_CENTRE_X,
    CONTACT_MARGIN,
    FRAME_RATE,
    INCH,
    free_slides,
    read_clip,
    write_tracks,
)

TABLE = load_court("horse-collar")
FAR_END = TABLE.bounds[3]
G = TABLE.params["gravity"]


def test_the_page_shows_the_results_file_s_numbers():
    assert check_page(DOCS) is None
    done = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.validation", "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_a_changed_result_makes_the_page_stale_and_writing_it_makes_it_current(tmp_path):
    docs = tmp_path / "docs"
    (docs / FOLDER).mkdir(parents=True)
    shutil.copy(DOCS / PAGE, docs / PAGE)
    results = json.loads((DOCS / FOLDER / RESULTS).read_text())
    results["tracked_table"]["laws"]["speed"]["mu"] += 0.001
    (docs / FOLDER / RESULTS).write_text(json.dumps(results))
    assert check_page(docs) is not None
    write_page(docs)
    assert check_page(docs) is None and "| 0.0157 ± 0.0003 |" in (docs / PAGE).read_text()


def _clip(path, contact_frame=70):
    """A small clip in the tracker's columns (inches): a puck at rest 30 in from the far end, first
    moved at ``contact_frame``, and a delivery under mu 0.02 from 170 in toward the far end that
    stops at the contact."""
    rows = [("frame", "track_id", "x", "y")]
    for f in range(120):
        moved = max(0, f - contact_frame + 1) * 0.5  # the hit puck moves half an inch a frame
        rows.append((f, 1, 13.0, 30.0 - moved))
    t = np.minimum(np.arange(0, 120), contact_frame) / FRAME_RATE
    s = slide_distance(t, 2.2, 0.02 * G, 0.0) / INCH
    for f, d in enumerate(s):
        rows.append((f, 7, 10.0 + 0.02 * d, 170.0 - d))
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    return path


def test_free_slides_keep_the_calibrated_part_before_the_contact_in_the_court_s_frame(tmp_path):
    slides = free_slides(read_clip(_clip(tmp_path / "clip.csv")), FAR_END)
    assert [s.name for s in slides] == ["track 7"]  # the resting puck is no delivery
    slide = slides[0]
    assert slide.ends_in == "contact" and slide.frames[-1] == 70 - CONTACT_MARGIN - 1
    assert np.all(FAR_END - slide.y <= CALIBRATED_REACH + 1e-12)
    assert np.all(np.diff(slide.frames) == 1) and slide.frames.size > 10
    first = slide.frames[0]
    d = slide_distance(first / FRAME_RATE, 2.2, 0.02 * G, 0.0)
    assert slide.y[0] == pytest.approx(FAR_END - 170.0 * INCH + d, abs=1e-9)
    assert slide.x[0] == pytest.approx(10.0 * INCH + 0.02 * d - CLIP_CENTRE_X, abs=1e-9)


def test_the_clip_s_tracks_read_back_and_fit_the_law_they_were_made_with(tmp_path):
    slides = free_slides(read_clip(_clip(tmp_path / "clip.csv")), FAR_END)
    tracks = read_tracks(write_tracks(slides, tmp_path / "tracks.csv"))
    assert tracks.names == ("track 7",) and tracks.points == slides[0].frames.size
    fit = fit_tracks(tracks, G, "coulomb", 0.002)
    assert fit.mu == pytest.approx(0.02, rel=1e-3)  # positions written to the micrometre


def test_a_delivery_too_short_in_the_calibrated_part_is_left_out(tmp_path):
    assert free_slides(read_clip(_clip(tmp_path / "clip.csv", contact_frame=34)), FAR_END) == []


def test_the_first_miss_test_matches_scipy_on_its_pooled_bins():
    observed = np.array([122, 61, 33, 25, 19, 11, 7, 5, 4, 5, 4, 2, 0, 1, 0, 0, 1])
    test = first_miss_test(observed, 0.65)
    obs, exp = pooled(observed, first_miss_expected(0.65, observed.size, 300))
    assert test["observed"] == list(obs) and sum(obs) == 300 and exp.sum() == pytest.approx(300)
    assert np.all(exp >= 5.0) and len(obs) < observed.size
    chi2, p = stats.chisquare(obs, exp)
    assert test["chi2"] == pytest.approx(chi2) and test["p"] == pytest.approx(p, rel=1e-9)
    assert first_miss_test(observed, 0.5)["p"] < 1e-6  # a far worse player than the rounds show


def test_misses_file_must_number_its_bins(tmp_path):
    path = tmp_path / "misses.csv"
    path.write_text("bin,count\n1,5\n3,2\n")
    with pytest.raises(ValueError, match="bin: the bins must run 1, 2, 3"):
        read_misses(path)


def test_sources_name_their_commits_and_licences(tmp_path):
    sources, speeds = load_sources()
    assert set(sources) == {"clip", "misses", "competitive"}
    for source in sources.values():
        assert len(source.commit) == 40 and int(source.commit, 16) >= 0 and source.licence
        assert source.url.startswith(f"https://github.com/{source.repository}/blob/{source.commit}/")
    assert not sources["clip"].carried and sources["misses"].carried
    assert {s.game for s in speeds} == {"deck"}
    reference = round_reference()
    assert reference["last_wins"] + reference["first_wins"] + reference["ties"] == pytest.approx(1.0, abs=0.002)
    with pytest.raises(FileNotFoundError, match="clip: no file"):
        raw_file(sources["clip"], tmp_path / "absent.csv", tmp_path)


def test_court_speeds_stand_beside_the_published_ranges():
    _, speeds = load_sources()
    rows = {row["court"]: row for row in court_speed_rows(speeds)}
    deck = rows["deck"]
    assert deck["speed"] == pytest.approx(load_court("deck").speed)
    assert [p["within"] for p in deck["published"]] == [True, False]
    assert rows["crokinole"]["published"] == [] and math.isfinite(rows["horse-collar"]["speed"])


def test_the_clip_script_writes_tracks_or_exits_2_in_one_line(tmp_path):
    clip = _clip(tmp_path / "clip.csv")
    done = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.validation.tracked_clip", str(clip), str(tmp_path / "t.csv")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith(f"wrote {tmp_path / 't.csv'}: 1 track, ")
    assert read_tracks(tmp_path / "t.csv").names == ("track 7",)
    (tmp_path / "bad.csv").write_text("frame,track_id,x\n1,2,3\n")
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "shuffle_sim.validation.tracked_clip",
            str(tmp_path / "bad.csv"),
            str(tmp_path / "u.csv"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr == f"error: {tmp_path / 'bad.csv'}: the tracked clip has no column 'y'\n"


def test_round_figures_count_every_round_once():
    figures = round_figures("average-competitive-ev", games=2, game_length=1)
    assert figures["rounds"] == 2
    assert figures["last_wins"] + figures["first_wins"] + figures["ties"] == pytest.approx(1.0)
    assert {figures["last_wins"] * 2, figures["first_wins"] * 2, figures["ties"] * 2} <= {0.0, 1.0, 2.0}
    assert 0.0 <= figures["twenties_per_player_round"] <= 4.0
