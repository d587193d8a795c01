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

# argparse's own words, which the command's help and errors show (see cli._language)
ARGPARSE = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
)
