"""Keys: which action a key runs (binding ids, ``ui.keys`` overrides) and the order keys reach the app in.

:class:`KeyRouting` is a mixin of :class:`smithtui.app.SmithApp`: Tab moves the focus at once, an editing
key on a text box runs in the box's own queue, and a burst of keys on a pane is a paste
(:mod:`smithtui.keybursts`). :func:`resolve_key_overrides` maps ``ui.keys`` names to binding ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual import events
from textual.binding import Binding


class KeyRouting:
    """The app's key routing (mixed into :class:`smithtui.app.SmithApp`, before ``App``)."""

    focused: Any
    screen: Any
    bursts: Any
    key_overrides: dict[str, str]

    async def on_event(self, event: events.Event) -> None:
        keyed = isinstance(event, events.Key) and not event.is_forwarded
        if keyed and (
            self._pasted_on_pane(event) or await self._focus_key_at_once(event) or await self._edit_key_in_order(event)
        ):
            return
        await super().on_event(event)

    async def _focus_key_at_once(self, event: events.Key) -> bool:
        """Tab / shift+tab move the focus before the next key is routed (``Tab`` then ``minilm`` types into the
        next box, not the one being left, which is what Textual's late focus binding did in a fast burst)."""
        if event.key not in ("tab", "shift+tab"):
            return False
        self.app_focus = True
        if await self._check_bindings(event.key, priority=True):  # a screen's own priority tab (completion, panes)
            return True
        if event.key == "tab":
            self.screen.focus_next()
        else:
            self.screen.focus_previous()
        return True

    async def _edit_key_in_order(self, event: events.Key) -> bool:
        """An editing key on a text box (ctrl+u, backspace, ←, Enter) runs in the box's own queue, after the
        letters typed before it and before those typed after it.

        Textual runs a widget's key bindings only once the key has bubbled back to the app, so in a fast
        burst (``ctrl+u`` then a path, over tmux or SSH) the letters were typed first and ``ctrl+u`` then
        deleted them.
        """
        from textual.widgets import Input

        box = self.focused
        if not isinstance(box, Input) or event.is_printable:
            return False
        bindings = [b for b in box._bindings.key_to_bindings.get(event.key, ()) if not b.priority]
        if not bindings:
            return False
        self.app_focus = True
        if await self._check_bindings(event.key, priority=True):  # the app's and screen's priority keys first
            return True
        box.call_later(self.run_action, bindings[0].action, box)
        return True

    def _pasted_on_pane(self, event: events.Key) -> bool:
        """A burst of keys faster than typing on a pane is a paste: into the sentence box, or dropped (never run)."""
        from textual.widgets import Input, TextArea

        from smithtui.keybursts import queued_keys

        if isinstance(self.focused, (Input, TextArea)):
            self.bursts.last = None  # typing in a text box: it takes pastes itself
            return False
        if self.bursts.last is None and event.key == self.key_overrides.get("workbench.focus_input", "i"):
            return False  # "i" then text, typed fast (or over a slow link): i focuses the box, the text goes there
        if not self.bursts.in_burst(event, queued_keys(self)):
            return False
        target = getattr(self.screen, "PASTE_TARGET", "")  # the screen's main text box, if it has one
        box = self.screen.query(target).first() if target else None
        if isinstance(box, Input):
            self.screen.set_focus(box)  # the rest of the burst is typed there as it comes, after this key
            key = events.Key("space", " ") if event.key in ("enter", "tab") else events.Key(event.key, event.character)
            box.post_message(key)  # behind the box's focus event (which may select what it holds)
            if self.bursts.started:
                where = {"sentence": "sentence box", "var-books": "book box", "clsd-data": "data set box"}.get(box.id or "")
                self.notify(f"pasted text goes into the {where or 'text box'}: a paste never runs a pane's keys", markup=False)
        elif self.bursts.started:
            self.notify(
                "ignored keys arriving faster than anyone types (a paste?): paste into a text box instead",
                severity="warning",
                markup=False,
            )
        return True


def all_binding_ids() -> dict[str, Binding]:
    """Every rebindable action id (``app.help``, ``workbench.accept``, ...) with its binding."""
    from smithtui.app import SmithApp
    from smithtui.screens.basket import BasketScreen
    from smithtui.screens.compare import CompareScreen
    from smithtui.screens.workbench import WorkbenchScreen
    from smithtui.widgets.dialogs import ConfirmScreen, ModelPickerScreen, PromptScreen

    out: dict[str, Binding] = {}
    for owner in (SmithApp, WorkbenchScreen, CompareScreen, BasketScreen, PromptScreen, ConfirmScreen, ModelPickerScreen):
        for b in owner.BINDINGS:
            if isinstance(b, Binding) and b.id:
                out.setdefault(b.id, b)
    return out


def resolve_key_overrides(keys: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Map ``ui.keys`` entries to binding ids; a short name (``accept``) works when it is unique.

    Returns the keymap and the names that matched no action.
    """
    if not keys:
        return {}, []
    ids = all_binding_ids()
    by_short: dict[str, list[str]] = {}
    for full in ids:
        by_short.setdefault(full.split(".", 1)[-1], []).append(full)
    keymap: dict[str, str] = {}
    unknown: list[str] = []
    for name, key in keys.items():
        if name in ids:
            keymap[name] = str(key)
        elif len(by_short.get(name, [])) == 1:
            keymap[by_short[name][0]] = str(key)
        else:
            unknown.append(name)
    return keymap, unknown
