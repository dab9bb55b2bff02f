"""How discs meet each other and the court's fixed bodies, the same under every motion law.

``impulses``
    the normal and Coulomb-capped tangential impulses of a disc-disc and a disc-body impact
``restitution``
    a restitution that falls with the impact speed above a yield speed (Johnson's scaling)
``bounce``
    a disc bouncing off a cushion or peg: the body's normal, restitution, friction and kill
``pushing``
    discs pushed together moving on as one; storms of impacts at one instant
``tolerances``
    the contact rules' tolerances
"""
