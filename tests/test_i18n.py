"""Translations: complete catalogs with consistent placeholders, rules summaries in every
language, and the terminal, the command and the drawings speaking the chosen language."""

import gettext
import re
import string
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

import azul
from azul import i18n
from azul.i18n.__main__ import main as update_catalogs

LANGS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]


def placeholders(text: str) -> list[str]:
    """The format fields ({name}) and printf fields (%(name)s, %s) of a message."""
    fields = [f"{{{name}}}" for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    return sorted(fields + re.findall(r"%(?:\(\w+\))?[sdr]", text))


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def test_catalogs_match_the_sources():
    assert update_catalogs(["--check"]) == 0, "run: python -m azul.i18n"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    with open(i18n.po_path(lang), "rb") as f:
        catalog = read_po(f, locale=lang)
    with open(i18n.LOCALES / "azul.pot", "rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    ids = {m.id for m in catalog if m.id}
    assert ids == template
    for m in catalog:
        if not m.id:
            continue
        assert not m.fuzzy, f"{lang}: fuzzy translation for {m.id!r}"
        # a plural message has a singular and a plural, and a translation per plural form
        texts = m.string if m.pluralizable else (m.string,)
        source = m.id[-1] if m.pluralizable else m.id
        assert len(texts) == (catalog.num_plurals if m.pluralizable else 1)
        for text in texts:
            assert text.strip(), f"{lang}: no translation for {m.id!r}"
            assert placeholders(text) == placeholders(source), f"{lang}: placeholders of {m.id!r}"
            assert source.endswith("\n") == text.endswith("\n"), f"{lang}: line end of {m.id!r}"


@pytest.mark.parametrize("game", sorted(azul.GAMES))
def test_a_rules_summary_in_every_language(game):
    english = i18n.rules(game, "en")
    assert "6" in english and len(english) > 500
    for lang in LANGS:
        text = i18n.rules(game, lang)
        assert text != english and len(text) > 500


def test_official_terms():
    fr, pt = i18n.in_language("fr"), i18n.in_language("pt")
    assert fr("Factories:") == "Fabriques :" and pt("Factories:") == "Fábricas:"
    assert fr("glazier") == "vitrailliste" and pt("glazier") == "vidraceiro"
    assert "tour de défausse" in i18n.rules("pavilion", "fr")
    assert "torre de descarte" in i18n.rules("pavilion", "pt")
    assert "curinga" in i18n.rules("pavilion", "pt") and "pilier" in i18n.rules("pavilion", "fr")
    assert "piste du verre brisé" in i18n.rules("sintra", "fr")


def test_the_terminal_board_and_drawings_speak_the_language():
    state = azul.load_game("pavilion", first_player=0).new_initial_state(1)
    i18n.use("fr")
    text = state.render()
    assert "Fabriques :" in text and "manche 1 sur 6" in text and "Réserve :" in text
    first = state.legal_actions()[0]  # the notation does not change with the language
    assert state.string_to_action(state.action_to_string(first)) == first
    i18n.use("pt")
    assert "Fábricas:" in state.render()
    assert "Rodada 1 de 6" in state.game.presenter().render_svg(state, lang="pt")
    assert "Manche 1 sur 6" in state.game.presenter().render_svg(state, lang="fr")
    assert "Round 1 of 6" in state.game.presenter().render_svg(state, lang="en")
    sintra = azul.load_game("sintra").new_initial_state(1)
    assert (
        "vidraceiro" in sintra.render()
        and "Vitrais de Sintra" in sintra.game.presenter().render_svg(sintra, lang="pt")
    )
    assert sintra.to_json() == azul.load_game("sintra").new_initial_state(1).to_json()


def run(args, tmp_path, **env):
    environment = {"PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": str(tmp_path), **env}
    return subprocess.run(
        [sys.executable, "-m", "azul", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
    )


def test_the_command_follows_the_locale_and_remembers_a_choice(tmp_path):
    assert "tour de défausse" in run(["rules", "pavilion"], tmp_path, LANG="fr_FR.UTF-8").stdout
    assert "vidraceiro" in run(["rules", "sintra"], tmp_path, LANG="pt_BR.UTF-8").stdout
    assert "Summer Pavilion in short" in run(["rules", "pavilion"], tmp_path, LANG="C").stdout
    helped = run(["--lang", "pt", "--help"], tmp_path, LANG="C")
    assert "uso:" in helped.stdout and "mostrar esta ajuda e sair" in helped.stdout
    assert "jogar uma partida no terminal" in helped.stdout
    # the choice is remembered over the locale
    later = run(["play", "--help"], tmp_path, LANG="fr_FR.UTF-8")
    assert "seu lugar (padrão 0)" in later.stdout
    bad = run(["play", "nogame"], tmp_path, LANG="C")
    assert "escolha inválida" in bad.stderr


def test_prompt_in_french():
    from azul import cli

    game = azul.load_game("pavilion", first_player=0)
    typed = iter(["F9:Q", "help", "rules", "quit"])
    i18n.use("fr")
    said = []
    cli.play(game.new_initial_state(1), {0}, {}, 1, ask=lambda _: next(typed), say=said.append)
    text = "\n".join(said)
    assert "coup illégal" in text and "Commandes :" in text and "Pavillon d'été en bref" in text


def test_errors_are_translated_with_their_game_words():
    import pickle

    from azul.core.errors import IllegalMoveError

    state = azul.load_game("pavilion", first_player=0).new_initial_state(1)
    with pytest.raises(IllegalMoveError) as caught:
        state.apply_string("R@R3")  # phase 1: not the time to place
    error = caught.value
    assert str(error) == "R@R3: now is the time to take tiles from a factory or the centre"
    assert error.translate(i18n.in_language("fr")) == (
        "R@R3 : c'est le moment de prendre des tuiles d'une fabrique ou du centre"
    )
    empty = next(f for f in range(1, 6) if not state.to_json()["factories"][f - 1].get("red"))
    with pytest.raises(IllegalMoveError) as caught:
        state.apply_string(f"F{empty}:R")
    assert caught.value.translate(i18n.in_language("pt")) == (
        f"a fábrica {empty} não tem azulejo vermelho"
    )
    copy = pickle.loads(pickle.dumps(caught.value))  # across process pools, fields kept
    assert copy.translate(i18n.in_language("fr")) == f"la fabrique {empty} n'a pas de tuile rouge"


def test_the_terminal_explains_illegal_moves_in_french():
    from azul import cli

    typed = iter(["F9:R", "quit"])
    said = []
    i18n.use("fr")
    state = azul.load_game("pavilion", first_player=0).new_initial_state(1)
    cli.play(state, {0}, {}, 1, ask=lambda _: next(typed), say=said.append)
    assert any("coup illégal : il n'y a pas de fabrique 9" in line for line in said)


def test_match_table_in_portuguese_stays_aligned():
    from azul.arena.stats import BotStats, table

    stats = [
        BotStats(
            "mcts:time=0.5", 100, 73.0, 0.73, 0.636, 0.807, 87.3, 84.1, 90.5, 7.7, 0.5, 29.4, 5.2
        ),
        BotStats("heuristic", 100, 27.0, 0.27, 0.193, 0.364, 79.6, 76.9, 82.3, -7.7, 0.001),
    ]
    i18n.use("pt")
    lines = table(stats).splitlines()
    assert "vitórias" in lines[0] and "média" in lines[0]
    assert len({len(line) for line in lines}) == 1  # every line as wide as the header
    assert "73.0%" in lines[2] and lines[3].rstrip().endswith("-")


def test_counts_take_the_plural_form_of_each_language():
    import re

    from azul.testing import play_random
    from tests.pavilion.helpers import load

    state = load(decision="bonus", bonus_owed=1, scores=[1, 2], hands=["B"])
    assert "(1 bonus tile from the supply)" in state.render()
    assert re.findall(r"seat \d: [^<]*", state.game.presenter().render_svg(state)) == [
        "seat 0: 1 point",
        "seat 1: 2 points",
    ]
    assert "place 0 : 1 point<" in state.game.presenter().render_svg(state, lang="fr")
    assert "place 1 : 2 points<" in state.game.presenter().render_svg(state, lang="fr")
    assert "lugar 0: 1 ponto<" in state.game.presenter().render_svg(state, lang="pt")
    i18n.use("fr")
    assert "(1 tuile bonus de la réserve)" in state.render()
    sintra = play_random(azul.load_game("sintra"), seed=3)
    winners = sintra.winners()
    i18n.use("pt")
    expected = "Vencedor: lugar" if len(winners) == 1 else "Vencedores: lugares"
    assert expected in sintra.render()


@pytest.mark.parametrize("lang", LANGS)
def test_the_browser_catalog_comes_from_the_compiled_one_as_it_came_from_the_po(lang):
    # what catalog() gave when it read the .po with Babel: every translated message without a
    # context or plural forms, in the same order
    with open(i18n.po_path(lang), "rb") as f:
        from_po = {
            m.id: m.string
            for m in read_po(f, locale=lang)
            if m.id and m.string and not m.context and not m.pluralizable
        }
    stale = "the compiled catalog is older than the .po: run python -m azul.i18n"
    assert list(i18n.catalog(lang).items()) == list(from_po.items()), stale


def test_run_time_translations_need_no_babel():
    # Babel is blocked: the compiled catalogs are read with the standard library alone
    code = """
import sys
sys.modules["babel"] = None
from azul import i18n
i18n.use("fr")
assert i18n._("usage: ") == "usage : "
assert i18n.pgettext("command", "moves") == "coups"
assert i18n.catalog("pt")["options"] == "opções"
assert "babel" not in {name.split(".")[0] for name, m in sys.modules.items() if m is not None}
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


@pytest.fixture
def no_compiled_catalogs(monkeypatch, tmp_path):
    """A source tree that was never built: no .mo anywhere."""
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n.translations.cache_clear()
    i18n.catalog.cache_clear()
    yield
    monkeypatch.undo()
    i18n.translations.cache_clear()
    i18n.catalog.cache_clear()


def test_a_missing_compiled_catalog_says_what_to_run(no_compiled_catalogs, capsys):
    from azul import cli

    assert i18n.translations("en").gettext("options") == "options"  # English needs none
    with pytest.raises(i18n.CatalogMissing, match=r"azul\.mo is missing.*pip install -e \."):
        i18n.in_language("fr")
    with pytest.raises(i18n.CatalogMissing):
        i18n.catalog("pt")
    assert cli.main(["--lang", "fr", "rules", "pavilion"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("azul: error: no compiled catalog for 'fr'") and "pip install" in error


def test_compiling_a_catalog_and_telling_a_stale_one(tmp_path):
    from azul.i18n import mofiles

    po = tmp_path / "locales" / "fr" / "LC_MESSAGES" / "azul.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(i18n.po_path("fr").read_bytes())
    mo = po.with_suffix(".mo")
    assert mofiles.sources(tmp_path) == [po]
    assert not mofiles.current(po, mo)
    assert mofiles.write(po, mo) and mofiles.current(po, mo)
    assert not mofiles.write(po, mo)  # nothing changed: the file is left alone
    assert mofiles.messages(mo.read_bytes()) == mofiles.messages(i18n.mo_path("fr").read_bytes())
    po.write_text(po.read_text().replace('msgstr "écart"', 'msgstr "marge"'))
    assert not mofiles.current(po, mo)
    assert mofiles.write(po, mo)
    with mo.open("rb") as f:
        assert gettext.GNUTranslations(f).gettext("margin") == "marge"
