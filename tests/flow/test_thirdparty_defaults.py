"""A variable with several defaults on disk (NVDLA_HW: make nvdla's copy, then the shared export of each block) takes
the first; a path under it that this default lacks comes from the first other default that holds it, so each shared
export serves its own block's file list (dlaverif.thirdparty.located, dlaverif.flow.filelists)."""

from pathlib import Path

import pytest

from dlaverif import thirdparty
from dlaverif.flow import filelists


@pytest.fixture
def two_exports(monkeypatch, tmp_path):
    """Two default trees of NVDLA_HW, each with one block's file; NVDLA_HW itself unset."""
    pdp, cdma = tmp_path / "pdp", tmp_path / "cdma"
    (pdp / "vmod/pdp").mkdir(parents=True)
    (pdp / "vmod/pdp/a.v").write_text("module a; endmodule\n")
    (cdma / "vmod/cdma").mkdir(parents=True)
    (cdma / "vmod/cdma/b.v").write_text("module b; endmodule\n")
    (cdma / "vmod/include").mkdir(parents=True)
    monkeypatch.delenv(thirdparty.NVDLA_HW, raising=False)
    monkeypatch.setitem(thirdparty.DEFAULTS, thirdparty.NVDLA_HW, ((tmp_path / "none", pdp, cdma), "a checkout"))
    return pdp, cdma


def test_the_first_default_found_is_the_value(two_exports):
    pdp, _ = two_exports
    assert thirdparty.environment({})[thirdparty.NVDLA_HW] == str(pdp)


def test_a_path_the_first_default_lacks_comes_from_the_one_that_has_it(two_exports):
    pdp, cdma = two_exports
    assert thirdparty.located(thirdparty.NVDLA_HW, str(pdp), "/vmod/cdma/b.v") == f"{cdma}/vmod/cdma/b.v"
    assert thirdparty.located(thirdparty.NVDLA_HW, str(pdp), "/vmod/pdp/a.v") == f"{pdp}/vmod/pdp/a.v"
    # in no default: the path as written, so that the build reports it missing
    assert thirdparty.located(thirdparty.NVDLA_HW, str(pdp), "/vmod/x.v") == f"{pdp}/vmod/x.v"


def test_a_value_the_user_set_is_kept(two_exports, tmp_path):
    mine = str(tmp_path / "checkout")
    assert thirdparty.located(thirdparty.NVDLA_HW, mine, "/vmod/cdma/b.v") == f"{mine}/vmod/cdma/b.v"


def test_a_file_list_takes_each_file_from_the_default_that_holds_it(two_exports, tmp_path):
    pdp, cdma = two_exports
    lst = tmp_path / "both.f"
    lst.write_text("+incdir+$NVDLA_HW/vmod/include\n$NVDLA_HW/vmod/pdp/a.v\n${NVDLA_HW}/vmod/cdma/b.v\n")
    fl = filelists.parse(lst)
    assert fl.sources == [Path(f"{pdp}/vmod/pdp/a.v"), Path(f"{cdma}/vmod/cdma/b.v")]
    assert fl.incdirs == [Path(f"{cdma}/vmod/include")]
