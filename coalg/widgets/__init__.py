"""The explorers: ipywidgets front ends over the pure library and the plots of :mod:`coalg.viz`.

============================  ==========================================================================
:mod:`.playground`            apply operations to a store, the laws of each step (§3.3, Def. 3.21)
:mod:`.ancestry`              ancestry against descendants (§3.4; Theorem 5.7, Propositions 5.2, 5.13)
:mod:`.bitemporal_stepper`    Theorem 5.27, then Proposition 7.1, step by step; bitemporal planes (§5.8, §7.1)
:mod:`.merge_lab`             merged type, namespace, content as order and θ vary (Props 5.20, 5.24, 5.25)
:mod:`.tenants_lab`           tenant stores, their union and how they interfere (§6; Props 6.3, 6.4, 6.6)
:mod:`.refinement_stepper`    partition refinement round by round; allocation-blind comparison (Def. 5.23)
:mod:`.tours`                 a recorded tour of each explorer, stepped in a static page with no kernel
============================  ==========================================================================

They stand on a small shared base: :mod:`.base` (an explorer: actions that
never raise, controls disabled while a step runs, one step per click, sessions,
size), :mod:`.stepping` (back and forth through a fixed sequence: proof steps,
refinement rounds), :mod:`coalg.widgets.session` and :mod:`.fields` (session files: written
atomically, read with limits, one error type), :mod:`.controls` and
:mod:`.text` (the common controls and what they write), :mod:`.figures` (plots
rendered to SVG; :mod:`.tree_rows` lays out the ancestry trees at the lecture hall's size),
:mod:`.allocation` (fresh allocations for a session),
:mod:`.tour` (a recorded sequence of states, stepped by a slider linked in
the browser), and, for single explorers, :mod:`.operations`, :mod:`.steps`,
:mod:`.playground_view` and :mod:`.merge_text`.

Rules every explorer follows: an invalid action (too few records, nothing
selected, an unknown identifier, a bad session file) never raises — it leaves
the state alone and puts a sentence in ``.message`` (shown in the widget); a
result shown is always the result of the controls shown, or none; figures are
SVG images in ``Image`` widgets, rendered at construction, so a page that
embeds the widget state statically (the web book) shows a meaningful picture.
Python callbacks run only under a live kernel (JupyterLab, Voila).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

