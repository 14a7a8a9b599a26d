"""PropBank frame index: parsing the AMR frame list, sense choice, roles, lazy loading."""

from __future__ import annotations

import pytest

from core.errors import ModelMissingError
from core.foils.amr.frames import FrameIndex


@pytest.fixture(scope="module")
def frames(shared_data) -> FrameIndex:
    return FrameIndex.load(shared_data / "amr" / "propbank-amr-frames-arg-descr.txt")


def test_real_frame_list_is_indexed(frames):
    assert len(frames) > 8000
    assert "bite-01" in frames and "bite-99" not in frames
    assert frames.roles("bite-01")["ARG0"].startswith("biter")
    assert frames.roles("nonexistent-01") == {}


def test_best_frame_prefers_common_amr_senses(frames):
    assert frames.best_frame("chase") == "chase-01"
    assert frames.best_frame("have") == "have-03"  # possession, AMR's usual sense
    assert frames.best_frame("sad") == "sad-02"  # there is no sad-01
    assert frames.best_frame("give-up") == "give-up-07"  # phrasal frames are indexed by "give-up"
    assert frames.best_frame("zzzzz") is None
    assert frames.frames("go")[0] == "go-01"


def test_roles_and_has_role(frames):
    assert frames.has_role("go-01", "ARG1") and not frames.has_role("go-01", "ARG0")
    assert frames.has_role("be-located-at-91", "ARG2")
    # descriptions are unescaped: the file writes apostrophes as \'
    assert "\\'" not in frames.roles("happy-01")["ARG2"]


def test_loading_is_lazy(shared_data):
    idx = FrameIndex.load(shared_data / "amr" / "propbank-amr-frames-arg-descr.txt")
    assert idx._roles is None
    assert idx.best_frame("bite") == "bite-01"
    assert idx._roles is not None


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ModelMissingError) as err:
        FrameIndex.load(tmp_path / "nope.txt")
    assert "frames file not found" in str(err.value) and err.value.hint


def test_malformed_lines_are_skipped():
    idx = FrameIndex.from_lines(["# comment", "", "no-sense-here  ARG0: x", "eat-01  ARG0: eater  ARG1: meal", "junk"])
    assert len(idx) == 1
    assert idx.roles("eat-01") == {"ARG0": "eater", "ARG1": "meal"}
