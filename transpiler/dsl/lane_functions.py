"""The platform's lane functions as a kernel calls them: in a kernel whose warp MMA runs in the
m16n8-exact mode (renamed lanes, bbx/platform/lane_renaming.hpp) their renamed form; in a kernel
given NVIDIA's warp MMA as plain MFMA atoms, a lane operation asks for the exact mode
(bbx.trace.mma_mode). Used by the registry's trace face and the experimental primitives'."""

from __future__ import annotations

from ..trace.errors import trace_error
from ..trace.kernel_scope import lanes_renamed, plain_warp_mma
from ..trace.mma_mode import need_exact_mode

#: the platform functions with a renamed-lanes form (`Renamed`, bbx/platform/lane_renaming.hpp)
RENAMED_LANE_FUNCTIONS = frozenset({
    "arch::lane_idx", "arch::warp_idx", "arch::shuffle_sync", "arch::shuffle_sync_bfly",
    "arch::shuffle_sync_up", "arch::shuffle_sync_down", "arch::vote_ballot", "arch::vote_any",
    "arch::vote_all", "arch::vote_uni", "arch::activemask", "arch::sync_warp",
})


def _reads_lanes(cxx: str) -> bool:
    """Whether the platform function `cxx` reads which lane holds which value (shuffles, votes,
    ballots, lane ids, warp reductions, lane masks), as code over NVIDIA's fragments does."""
    name = cxx.removeprefix("arch::").removeprefix("experimental::")
    return name.startswith(("shuffle", "shfl", "vote", "lane", "warp_redux", "redux", "match"))


def renamed_lane_function(cxx: str, what: str) -> str:
    """`cxx` as a kernel with renamed lanes (the m16n8-exact MMA mode) calls it: the platform's
    renamed form, or a located error for a lane operation that has none yet."""
    if not lanes_renamed():
        if plain_warp_mma() and _reads_lanes(cxx):
            need_exact_mode(what)  # NVIDIA's fragments assumed: trace again in the exact mode
        return cxx
    if cxx in RENAMED_LANE_FUNCTIONS:
        return cxx + "<true>"
    if cxx.startswith(("arch::warp_redux_sync", "arch::lanemask", "experimental::")) and any(
            w in cxx for w in ("redux", "lanemask", "shfl", "match", "bar_warp")):
        raise trace_error("mma-exact", f"{what} in a kernel whose warp MMA runs in the "
                          "m16n8-exact mode", "its lanes are renamed and this lane operation "
                          "has no renamed form yet (shuffles, votes, ballots and lane ids do)")
    return cxx
