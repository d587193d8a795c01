"""Game words that reach people as data values (colour, star and decision names, board sides),
marked here so that the catalogs hold them. Names follow the French and Portuguese editions."""

from azul.i18n import N_

TERMS = (
    # Summer Pavilion colours and stars (pavilion/data.py)
    N_("purple"),
    N_("green"),
    N_("orange"),
    N_("yellow"),
    N_("blue"),
    N_("red"),
    N_("centre"),
    # the grey side's stars, by place (pavilion/data.py GREY_STAR_PLACES)
    N_("left"),
    N_("upper left"),
    N_("upper right"),
    N_("right"),
    N_("lower right"),
    N_("lower left"),
    # Sintra colours (sintra/components.toml)
    N_("pink"),
    N_("white"),
    # decisions (state.decision())
    N_("take"),
    N_("place"),
    N_("bonus"),
    N_("play"),
    N_("keep"),
    N_("over"),
    # board sides
    N_("coloured"),
    N_("grey"),
)
