"""The court packed for the kernels: what every motion law reads about the court, in arrays.

``court_table``
    the court's geometry and materials as one float array (header row, then a row per edge,
    cushion, peg, hole and kill line), the decelerations and a segment's frame
``packing``
    a court's ``KernelArrays``, packed table and packed surface, built once and kept on the court
``surface``
    a court's surface shape (slope, crown, height and friction maps) packed for the integrated law,
    and its grade, friction and bounds at a point
``orbit_layout``
    the layout of the coupled model's packed tables
``orbit_tables``
    the coupled model's tables for a contact annulus and inertia ratio, built and cached
"""
