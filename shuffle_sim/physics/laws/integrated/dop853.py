"""The Dormand-Prince 8(5,3) Runge-Kutta method with its 7th-order dense output: coefficients, and
the source of the curved-motion path's unrolled step (``step``).

The coefficients are those of Hairer's ``dop853.f`` (E. Hairer, S. P. Norsett and G. Wanner, Solving
Ordinary Differential Equations I, 2nd ed., Springer 1993, section II.10; the code's own digits, as
SciPy's ``dop853_coefficients`` also transcribes them): 12 stages for an 8th-order step, the last
stage's value at the new state reused as the next step's first (FSAL), error estimators of orders 5
and 3 combined as in the code, and three extra stages for a continuous extension of order 7.

``step_source`` writes the module ``step``: the step for the six components of a curved motion
(``motion``), every stage a sum over its non-zero coefficients in scalar locals, so that numba
compiles a step with no array and no loop (about a fifth faster than loops over these arrays, and no
scratch array to pass down). The generated file is part of the source;
``tests/physics/test_surface_lone.py`` checks that it is what this function writes. The dense
output, wanted far more rarely, is a loop over the same tables (``dense``).
"""

from __future__ import annotations

import numpy as np

N_STAGES = 12
N_STAGES_EXTENDED = 16
INTERPOLATOR_POWER = 7

C = np.array(
    [
        0.0,
        0.526001519587677318785587544488e-01,
        0.789002279381515978178381316732e-01,
        0.118350341907227396726757197510,
        0.281649658092772603273242802490,
        0.333333333333333333333333333333,
        0.25,
        0.307692307692307692307692307692,
        0.651282051282051282051282051282,
        0.6,
        0.857142857142857142857142857142,
        1.0,
        1.0,
        0.1,
        0.2,
        0.777777777777777777777777777778,
    ]
)

A = np.zeros((N_STAGES_EXTENDED, N_STAGES_EXTENDED))
A[1, 0] = 5.26001519587677318785587544488e-2

A[2, 0] = 1.97250569845378994544595329183e-2
A[2, 1] = 5.91751709536136983633785987549e-2

A[3, 0] = 2.95875854768068491816892993775e-2
A[3, 2] = 8.87627564304205475450678981324e-2

A[4, 0] = 2.41365134159266685502369798665e-1
A[4, 2] = -8.84549479328286085344864962717e-1
A[4, 3] = 9.24834003261792003115737966543e-1

A[5, 0] = 3.7037037037037037037037037037e-2
A[5, 3] = 1.70828608729473871279604482173e-1
A[5, 4] = 1.25467687566822425016691814123e-1

A[6, 0] = 3.7109375e-2
A[6, 3] = 1.70252211019544039314978060272e-1
A[6, 4] = 6.02165389804559606850219397283e-2
A[6, 5] = -1.7578125e-2

A[7, 0] = 3.70920001185047927108779319836e-2
A[7, 3] = 1.70383925712239993810214054705e-1
A[7, 4] = 1.07262030446373284651809199168e-1
A[7, 5] = -1.53194377486244017527936158236e-2
A[7, 6] = 8.27378916381402288758473766002e-3

A[8, 0] = 6.24110958716075717114429577812e-1
A[8, 3] = -3.36089262944694129406857109825
A[8, 4] = -8.68219346841726006818189891453e-1
A[8, 5] = 2.75920996994467083049415600797e1
A[8, 6] = 2.01540675504778934086186788979e1
A[8, 7] = -4.34898841810699588477366255144e1

A[9, 0] = 4.77662536438264365890433908527e-1
A[9, 3] = -2.48811461997166764192642586468
A[9, 4] = -5.90290826836842996371446475743e-1
A[9, 5] = 2.12300514481811942347288949897e1
A[9, 6] = 1.52792336328824235832596922938e1
A[9, 7] = -3.32882109689848629194453265587e1
A[9, 8] = -2.03312017085086261358222928593e-2

A[10, 0] = -9.3714243008598732571704021658e-1
A[10, 3] = 5.18637242884406370830023853209
A[10, 4] = 1.09143734899672957818500254654
A[10, 5] = -8.14978701074692612513997267357
A[10, 6] = -1.85200656599969598641566180701e1
A[10, 7] = 2.27394870993505042818970056734e1
A[10, 8] = 2.49360555267965238987089396762
A[10, 9] = -3.0467644718982195003823669022

A[11, 0] = 2.27331014751653820792359768449
A[11, 3] = -1.05344954667372501984066689879e1
A[11, 4] = -2.00087205822486249909675718444
A[11, 5] = -1.79589318631187989172765950534e1
A[11, 6] = 2.79488845294199600508499808837e1
A[11, 7] = -2.85899827713502369474065508674
A[11, 8] = -8.87285693353062954433549289258
A[11, 9] = 1.23605671757943030647266201528e1
A[11, 10] = 6.43392746015763530355970484046e-1

A[12, 0] = 5.42937341165687622380535766363e-2
A[12, 5] = 4.45031289275240888144113950566
A[12, 6] = 1.89151789931450038304281599044
A[12, 7] = -5.8012039600105847814672114227
A[12, 8] = 3.1116436695781989440891606237e-1
A[12, 9] = -1.52160949662516078556178806805e-1
A[12, 10] = 2.01365400804030348374776537501e-1
A[12, 11] = 4.47106157277725905176885569043e-2

A[13, 0] = 5.61675022830479523392909219681e-2
A[13, 6] = 2.53500210216624811088794765333e-1
A[13, 7] = -2.46239037470802489917441475441e-1
A[13, 8] = -1.24191423263816360469010140626e-1
A[13, 9] = 1.5329179827876569731206322685e-1
A[13, 10] = 8.20105229563468988491666602057e-3
A[13, 11] = 7.56789766054569976138603589584e-3
A[13, 12] = -8.298e-3

A[14, 0] = 3.18346481635021405060768473261e-2
A[14, 5] = 2.83009096723667755288322961402e-2
A[14, 6] = 5.35419883074385676223797384372e-2
A[14, 7] = -5.49237485713909884646569340306e-2
A[14, 10] = -1.08347328697249322858509316994e-4
A[14, 11] = 3.82571090835658412954920192323e-4
A[14, 12] = -3.40465008687404560802977114492e-4
A[14, 13] = 1.41312443674632500278074618366e-1

A[15, 0] = -4.28896301583791923408573538692e-1
A[15, 5] = -4.69762141536116384314449447206
A[15, 6] = 7.68342119606259904184240953878
A[15, 7] = 4.06898981839711007970213554331
A[15, 8] = 3.56727187455281109270669543021e-1
A[15, 12] = -1.39902416515901462129418009734e-3
A[15, 13] = 2.9475147891527723389556272149
A[15, 14] = -9.15095847217987001081870187138


B = A[N_STAGES, :N_STAGES]

E3 = np.zeros(N_STAGES + 1)
E3[:-1] = B.copy()
E3[0] -= 0.244094488188976377952755905512
E3[8] -= 0.733846688281611857341361741547
E3[11] -= 0.220588235294117647058823529412e-1

E5 = np.zeros(N_STAGES + 1)
E5[0] = 0.1312004499419488073250102996e-1
E5[5] = -0.1225156446376204440720569753e1
E5[6] = -0.4957589496572501915214079952
E5[7] = 0.1664377182454986536961530415e1
E5[8] = -0.3503288487499736816886487290
E5[9] = 0.3341791187130174790297318841
E5[10] = 0.8192320648511571246570742613e-1
E5[11] = -0.2235530786388629525884427845e-1

# First 3 coefficients are computed separately.
D = np.zeros((INTERPOLATOR_POWER - 3, N_STAGES_EXTENDED))
D[0, 0] = -0.84289382761090128651353491142e1
D[0, 5] = 0.56671495351937776962531783590
D[0, 6] = -0.30689499459498916912797304727e1
D[0, 7] = 0.23846676565120698287728149680e1
D[0, 8] = 0.21170345824450282767155149946e1
D[0, 9] = -0.87139158377797299206789907490
D[0, 10] = 0.22404374302607882758541771650e1
D[0, 11] = 0.63157877876946881815570249290
D[0, 12] = -0.88990336451333310820698117400e-1
D[0, 13] = 0.18148505520854727256656404962e2
D[0, 14] = -0.91946323924783554000451984436e1
D[0, 15] = -0.44360363875948939664310572000e1

D[1, 0] = 0.10427508642579134603413151009e2
D[1, 5] = 0.24228349177525818288430175319e3
D[1, 6] = 0.16520045171727028198505394887e3
D[1, 7] = -0.37454675472269020279518312152e3
D[1, 8] = -0.22113666853125306036270938578e2
D[1, 9] = 0.77334326684722638389603898808e1
D[1, 10] = -0.30674084731089398182061213626e2
D[1, 11] = -0.93321305264302278729567221706e1
D[1, 12] = 0.15697238121770843886131091075e2
D[1, 13] = -0.31139403219565177677282850411e2
D[1, 14] = -0.93529243588444783865713862664e1
D[1, 15] = 0.35816841486394083752465898540e2

D[2, 0] = 0.19985053242002433820987653617e2
D[2, 5] = -0.38703730874935176555105901742e3
D[2, 6] = -0.18917813819516756882830838328e3
D[2, 7] = 0.52780815920542364900561016686e3
D[2, 8] = -0.11573902539959630126141871134e2
D[2, 9] = 0.68812326946963000169666922661e1
D[2, 10] = -0.10006050966910838403183860980e1
D[2, 11] = 0.77771377980534432092869265740
D[2, 12] = -0.27782057523535084065932004339e1
D[2, 13] = -0.60196695231264120758267380846e2
D[2, 14] = 0.84320405506677161018159903784e2
D[2, 15] = 0.11992291136182789328035130030e2

D[3, 0] = -0.25693933462703749003312586129e2
D[3, 5] = -0.15418974869023643374053993627e3
D[3, 6] = -0.23152937917604549567536039109e3
D[3, 7] = 0.35763911791061412378285349910e3
D[3, 8] = 0.93405324183624310003907691704e2
D[3, 9] = -0.37458323136451633156875139351e2
D[3, 10] = 0.10409964950896230045147246184e3
D[3, 11] = 0.29840293426660503123344363579e2
D[3, 12] = -0.43533456590011143754432175058e2
D[3, 13] = 0.96324553959188282948394950600e2
D[3, 14] = -0.39177261675615439165231486172e2
D[3, 15] = -0.14972683625798562581422125276e3


#: Components of a curved motion's state, in order (``motion``).
COMPONENTS = ("x", "y", "vx", "vy", "w", "t")


def _sum(coefficients, names) -> str:
    terms = [f"{float(c)!r} * {name}" for c, name in zip(coefficients, names) if c != 0.0]
    return " + ".join(terms) if terms else "0.0"


def step_source() -> str:
    """The text of ``step.py`` (module docstring)."""
    n = len(COMPONENTS)
    ys = ", ".join(f"y{c}" for c in range(n))
    fs = ", ".join(f"f{c}" for c in range(n))
    out = [
        '"""One Dormand-Prince 8(5,3) step of a curved motion, unrolled. Generated by',
        "``dop853.step_source``: do not edit; change the generator and write the file again.",
        "",
        "``step`` advances the state (x, y, vx, vy, w, t) by h in sigma and returns the new state, its",
        "derivatives (the next step's first stage) and the error norm (``motion.error_norm``). Each",
        "stage calls the equations (``motion.derivatives``), a kernel compiled once rather than inlined",
        "twelve times: the same numbers at a fraction of the compile. The dense output of a step is",
        'a loop over the same coefficients (``dense``)."""',
        "",
        "from shuffle_sim._runtime import jit",
        "from shuffle_sim.physics.laws.integrated.motion import derivatives, error_norm",
        "",
    ]

    def stages(indent: str) -> list[str]:
        lines = []
        for c in range(n):
            lines.append(f"{indent}k0_{c} = f{c}")
        for s in range(1, N_STAGES):
            for c in range(n):
                lines.append(f"{indent}a{c} = y{c} + h * ({_sum(A[s, :s], [f'k{j}_{c}' for j in range(s)])})")
            lines.append(
                f"{indent}"
                + ", ".join(f"k{s}_{c}" for c in range(n))
                + " = derivatives(surface, c, members, ride, a0, a1, a2, a3, a4)"
            )
        for c in range(n):
            lines.append(f"{indent}n{c} = y{c} + h * ({_sum(B, [f'k{j}_{c}' for j in range(N_STAGES)])})")
        lines.append(
            f"{indent}"
            + ", ".join(f"k12_{c}" for c in range(n))
            + " = derivatives(surface, c, members, ride, n0, n1, n2, n3, n4)"
        )
        return lines

    out += [
        "",
        "@jit.no_refcount",
        "def step(surface, c, members, ride, y, f, h):",
        '    """(new state, its derivatives, error norm) of a step of h from the state y and its derivatives f',
        '    (6-tuples)."""',
        f"    {ys} = y",
        f"    {fs} = f",
    ]
    out += stages("    ")
    for c in range(n):
        out.append(f"    e5_{c} = {_sum(E5, [f'k{j}_{c}' for j in range(N_STAGES + 1)])}")
        out.append(f"    e3_{c} = {_sum(E3, [f'k{j}_{c}' for j in range(N_STAGES + 1)])}")
    news = ", ".join(f"n{c}" for c in range(n))
    ks = ", ".join(f"k12_{c}" for c in range(n))
    e5 = ", ".join(f"e5_{c}" for c in range(n))
    e3 = ", ".join(f"e3_{c}" for c in range(n))
    out.append(f"    return ({news}), ({ks}), error_norm(c, h, ({ys}), ({news}), ({e5}), ({e3}))")
    return "\n".join(out) + "\n"
