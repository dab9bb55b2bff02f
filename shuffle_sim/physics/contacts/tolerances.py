"""The contact rules' tolerances, one set for every motion law.

Discs already touching (centres within ``CONTACT_GAP`` of contact) and approaching faster than
``APPROACH_TOL`` collide at once: a Newton's cradle passes its momentum down the line in one impulse
per pair, and a disc driven into a cluster is resolved at that instant. Touching but not
approaching, they are left alone until they overlap by ``OVERLAP_SLACK`` (a contact that is being
pushed together), which bounds every overlap and rules out the endless chain of zero-time events
that rounding would otherwise produce.
"""

from __future__ import annotations

#: Centres this close to contact (m) count as touching.
CONTACT_GAP = 1e-9
#: Touching bodies approaching faster than this (m/s) collide at once.
APPROACH_TOL = 1e-9
#: Touching bodies that are not approaching collide again only once they overlap by this (m).
OVERLAP_SLACK = 1e-10
#: Tolerance (m) on the ends of an edge segment, so that a disc crossing exactly at a corner of the
#: surface falls through one of the two edges that meet there.
EDGE_TOL = 1e-9
