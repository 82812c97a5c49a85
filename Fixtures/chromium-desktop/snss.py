"""An encoder of Chromium's desktop session files (SNSS), written from the facts in
docs/chromium-desktop-format.md and independent of sessionctl's Swift code. Standard library only.

Layers, bottom up:

* Pickle: base::Pickle as Chromium writes it (a uint32 payload size, then 4-byte aligned fields).
* Command and frame(): one record, uint16 size (id byte included), uint8 id, contents.
* One function per command id of the session service (Session_ and Apps_ files) and of the tab
  restore service (Tabs_ files, names starting with tr_). Each returns a Command.
* Navigation: SerializedNavigationEntry::WriteToPickle's field order.
* Window, Tab, Group and rebuild_commands(): the full state in the order Chrome's reset writes it
  (SessionServiceBase::BuildCommandsForBrowser / BuildCommandsForTab).
* session_file() and tab_restore_file(): a whole file, header, full state, marker, then appended
  commands.

All integers are little-endian. Times are microseconds since 1601-01-01 UTC (base::Time's
internal value), as Chrome writes them.
"""
import struct
from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

# File header (command_storage_backend.cc).
SIGNATURE = b"SNSS"               # the int32 0x53534E53 written little-endian
VERSION_1 = 1                     # cleartext, no marker (before 2021-05)
VERSION_ENCRYPTED = 2             # encrypted, no marker (never shipped)
VERSION_WITH_MARKER = 3           # cleartext with the initial-state marker (current)
VERSION_ENCRYPTED_WITH_MARKER = 4  # AES-GCM per record, never in production
VERSION_OSCRYPT = 5               # os_crypt_async per record, uint32 sizes (2026)

MARKER_ID = 255                   # kInitialStateMarkerCommandId, empty contents
MAX_CONTENT = 65535 - 1           # SessionCommand::kMaxContentSize
MAX_NAVIGATION_STRINGS = 65535 - 1024  # max_state_size in CreateUpdateTabNavigationCommand

# Microseconds between 1601-01-01 and 1970-01-01.
WINDOWS_TO_UNIX_EPOCH_US = 11644473600 * 1000000


class Pickle:
    """base::Pickle: fields padded to 4 bytes; to_bytes() puts the uint32 payload size first."""

    def __init__(self):
        self.buf = bytearray()

    def _align(self):
        while len(self.buf) % 4:
            self.buf.append(0)
        return self

    def raw(self, data: bytes):
        self.buf += data
        return self._align()

    def int32(self, value: int):
        return self.raw(struct.pack("<i", value))

    def uint32(self, value: int):
        return self.raw(struct.pack("<I", value & 0xFFFFFFFF))

    def int64(self, value: int):
        return self.raw(struct.pack("<q", value))

    def uint64(self, value: int):
        return self.raw(struct.pack("<Q", value & 0xFFFFFFFFFFFFFFFF))

    def bool(self, value: bool):
        # WriteBool writes an int 0 or 1; ReadBool reads its first byte.
        return self.int32(1 if value else 0)

    def double(self, value: float):
        return self.raw(struct.pack("<d", value))

    def string(self, value):
        data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
        self.int32(len(data))
        return self.raw(data)

    def string16(self, value: str):
        data = value.encode("utf-16-le")
        self.int32(len(data) // 2)
        return self.raw(data)

    def token(self, token: Tuple[int, int]):
        high, low = token
        return self.uint64(high).uint64(low)

    def to_bytes(self) -> bytes:
        return struct.pack("<I", len(self.buf)) + bytes(self.buf)


class Command(NamedTuple):
    id: int
    payload: bytes


def frame(command: Command) -> bytes:
    """One record as SessionCommand::SerializeAsCleartext writes it: the size counts the id byte.
    Contents beyond kMaxContentSize are cut, as Chrome cuts them."""
    payload = command.payload[:MAX_CONTENT]
    return struct.pack("<HB", len(payload) + 1, command.id) + payload


def header(version: int = VERSION_WITH_MARKER) -> bytes:
    return SIGNATURE + struct.pack("<i", version)


def marker() -> Command:
    return Command(MARKER_ID, b"")


def _pickled(command_id: int, pickle: Pickle) -> Command:
    return Command(command_id, pickle.to_bytes())


def _struct(command_id: int, fmt: str, *values) -> Command:
    return Command(command_id, struct.pack(fmt, *values))


def unix_to_windows_us(unix_seconds: float) -> int:
    return int(round(unix_seconds * 1000000)) + WINDOWS_TO_UNIX_EPOCH_US


# ---------------------------------------------------------------------------------------------
# Navigation entries (serialized_navigation_entry.cc, WriteToPickle).

# ui::PageTransition: core types in the low byte, qualifiers above.
TRANSITION_LINK = 0
TRANSITION_TYPED = 1
TRANSITION_AUTO_BOOKMARK = 2
TRANSITION_RELOAD = 8
QUALIFIER_FORWARD_BACK = 0x01000000
QUALIFIER_FROM_ADDRESS_BAR = 0x02000000
QUALIFIER_CHAIN_START = 0x10000000
QUALIFIER_CHAIN_END = 0x20000000

OBSOLETE_REFERRER_POLICY_NEVER = 2  # kObsoleteReferrerPolicyNever, the field kept since m61


@dataclass
class Navigation:
    index: int
    url: str
    title: str = ""
    page_state: bytes = b""
    transition: int = TRANSITION_LINK | QUALIFIER_CHAIN_START | QUALIFIER_CHAIN_END
    has_post_data: bool = False
    referrer_url: str = ""
    original_request_url: str = ""
    is_overriding_user_agent: bool = False
    timestamp: int = 0           # microseconds since 1601
    http_status_code: int = 200
    referrer_policy: int = 6     # a network::mojom::ReferrerPolicy value, not interpreted here
    extended_info: Dict[str, str] = field(default_factory=dict)
    task_id: int = -1
    parent_task_id: int = -1
    root_task_id: int = -1
    # "full" writes every field current Chrome writes; "minimal" only the five a reader requires
    # (index, url, title, page state, transition), as the first versions of the format did.
    fields: str = "full"

    def write(self, pickle: Pickle, max_size: int = MAX_NAVIGATION_STRINGS) -> Pickle:
        """WriteToPickle: strings are written only while the running total of their bytes stays
        under max_size; past it an empty string is written in their place."""
        written = [0]

        def text(value: str):
            data = value.encode("utf-8")
            if written[0] + len(data) < max_size:
                written[0] += len(data)
                pickle.string(data)
            else:
                pickle.string(b"")

        def text16(value: str):
            size = len(value.encode("utf-16-le"))
            if written[0] + size < max_size:
                written[0] += size
                pickle.string16(value)
            else:
                pickle.string16("")

        def blob(value: bytes):
            if written[0] + len(value) < max_size:
                written[0] += len(value)
                pickle.string(value)
            else:
                pickle.string(b"")

        pickle.int32(self.index)
        text(self.url)
        text16(self.title)
        blob(self.page_state)
        pickle.int32(self.transition)
        if self.fields == "minimal":
            return pickle
        pickle.int32(1 if self.has_post_data else 0)      # type mask, HAS_POST_DATA = 1
        text(self.referrer_url)
        pickle.int32(OBSOLETE_REFERRER_POLICY_NEVER)      # ignored by readers
        text(self.original_request_url)
        pickle.bool(self.is_overriding_user_agent)
        pickle.int64(self.timestamp)
        text16("")                                         # search terms, removed, always empty
        pickle.int32(self.http_status_code)
        pickle.int32(self.referrer_policy)
        pickle.int32(len(self.extended_info))
        for key in sorted(self.extended_info, key=lambda k: k.encode("utf-8")):
            text(key)
            text(self.extended_info[key])
        pickle.int64(self.task_id)
        pickle.int64(self.parent_task_id)
        pickle.int64(self.root_task_id)
        pickle.int32(0)                                    # former child task id count
        return pickle


# ---------------------------------------------------------------------------------------------
# Session service commands (session_service_commands.cc). Session_ and Apps_ files.

SESSION_COMMAND_NAMES = {
    0: "SetTabWindow", 1: "SetWindowBounds (obsolete)", 2: "SetTabIndexInWindow",
    5: "TabNavigationPathPrunedFromBack", 6: "UpdateTabNavigation",
    7: "SetSelectedNavigationIndex", 8: "SetSelectedTabInIndex", 9: "SetWindowType",
    10: "SetWindowBounds2", 11: "TabNavigationPathPrunedFromFront", 12: "SetPinnedState",
    13: "SetExtensionAppID", 14: "SetWindowBounds3", 15: "SetWindowAppName", 16: "TabClosed",
    17: "WindowClosed", 18: "SetTabUserAgentOverride", 19: "SessionStorageAssociated",
    20: "SetActiveWindow", 21: "LastActiveTime", 22: "SetWindowWorkspace (obsolete)",
    23: "SetWindowWorkspace2", 24: "TabNavigationPathPruned", 25: "SetTabGroup",
    26: "SetTabGroupMetadata (obsolete)", 27: "SetTabGroupMetadata2", 28: "SetTabGuid",
    29: "SetTabUserAgentOverride2", 30: "SetTabData", 31: "SetWindowUserTitle",
    32: "SetWindowVisibleOnAllWorkspaces", 33: "AddTabExtraData", 34: "AddWindowExtraData",
    35: "SetPlatformSessionId", 36: "SetSplitTab", 37: "SetSplitTabData",
    255: "InitialStateMarker",
}

# SessionWindow::WindowType
WINDOW_NORMAL, WINDOW_POPUP, WINDOW_APP, WINDOW_DEVTOOLS, WINDOW_APP_POPUP = 0, 1, 2, 3, 4
# The persisted show states of kCommandSetWindowBounds3.
SHOW_NORMAL, SHOW_MINIMIZED, SHOW_MAXIMIZED, SHOW_FULLSCREEN = 1, 2, 3, 5
# tab_groups::TabGroupColorId
COLOR_GREY, COLOR_BLUE, COLOR_RED, COLOR_YELLOW, COLOR_GREEN = 0, 1, 2, 3, 4
COLOR_PINK, COLOR_PURPLE, COLOR_CYAN, COLOR_ORANGE = 5, 6, 7, 8


def set_tab_window(window_id: int, tab_id: int) -> Command:
    return _struct(0, "<ii", window_id, tab_id)


def set_tab_index_in_window(tab_id: int, index: int) -> Command:
    return _struct(2, "<ii", tab_id, index)


def tab_navigation_path_pruned_from_back(tab_id: int, index: int) -> Command:
    return _struct(5, "<ii", tab_id, index)


def update_tab_navigation(tab_id: int, navigation: Navigation) -> Command:
    pickle = Pickle().int32(tab_id)
    navigation.write(pickle)
    return _pickled(6, pickle)


def set_selected_navigation_index(tab_id: int, index: int) -> Command:
    return _struct(7, "<ii", tab_id, index)


def set_selected_tab_in_index(window_id: int, index: int) -> Command:
    return _struct(8, "<ii", window_id, index)


def set_window_type(window_id: int, window_type: int = WINDOW_NORMAL) -> Command:
    return _struct(9, "<ii", window_id, window_type)


def set_window_bounds2(window_id: int, x: int, y: int, w: int, h: int,
                       maximized: bool) -> Command:
    """Obsolete, still read for migration: 5 int32 and a bool, padded to 24 bytes."""
    return _struct(10, "<iiiiiB3x", window_id, x, y, w, h, 1 if maximized else 0)


def tab_navigation_path_pruned_from_front(tab_id: int, count: int) -> Command:
    return _struct(11, "<ii", tab_id, count)


def set_pinned_state(tab_id: int, pinned: bool = True) -> Command:
    return _struct(12, "<iB3x", tab_id, 1 if pinned else 0)


def set_extension_app_id(tab_id: int, app_id: str) -> Command:
    return _pickled(13, Pickle().int32(tab_id).string(app_id))


def set_window_bounds3(window_id: int, x: int, y: int, w: int, h: int,
                       show_state: int = SHOW_NORMAL) -> Command:
    return _struct(14, "<6i", window_id, x, y, w, h, show_state)


def set_window_app_name(window_id: int, app_name: str) -> Command:
    return _pickled(15, Pickle().int32(window_id).string(app_name))


def tab_closed(tab_id: int, close_time: int) -> Command:
    """ClosedPayload: int32 id, 4 bytes of padding, int64 time (16 bytes)."""
    return _struct(16, "<i4xq", tab_id, close_time)


def window_closed(window_id: int, close_time: int) -> Command:
    return _struct(17, "<i4xq", window_id, close_time)


def set_tab_user_agent_override(tab_id: int, user_agent: str) -> Command:
    """Obsolete (superseded by 29), still read."""
    return _pickled(18, Pickle().int32(tab_id).string(user_agent))


def session_storage_associated(tab_id: int, persistent_id: str) -> Command:
    return _pickled(19, Pickle().int32(tab_id).string(persistent_id))


def set_active_window(window_id: int) -> Command:
    return _struct(20, "<i", window_id)


def last_active_time(tab_id: int, time_us: int) -> Command:
    """int32 tab id, 4 bytes of padding, int64 microseconds since 1601 (16 bytes)."""
    return _struct(21, "<i4xq", tab_id, time_us)


def set_window_workspace2(window_id: int, workspace: str) -> Command:
    return _pickled(23, Pickle().int32(window_id).string(workspace))


def tab_navigation_path_pruned(tab_id: int, index: int, count: int) -> Command:
    return _struct(24, "<iii", tab_id, index, count)


def set_tab_group(tab_id: int, group: Optional[Tuple[int, int]]) -> Command:
    """TabGroupPayload: int32 tab id, 4 bytes of padding, uint64 high, uint64 low, bool has_group,
    7 bytes of padding (32 bytes)."""
    high, low = group if group else (0, 0)
    return _struct(25, "<i4xQQB7x", tab_id, high, low, 1 if group else 0)


def set_tab_group_metadata2(group: Tuple[int, int], title: str, color: int,
                            collapsed: bool = False,
                            saved_guid: Optional[str] = None) -> Command:
    pickle = Pickle().token(group).string16(title).uint32(color).bool(collapsed)
    pickle.bool(saved_guid is not None)
    if saved_guid is not None:
        pickle.string(saved_guid)
    return _pickled(27, pickle)


def set_tab_guid(tab_id: int, guid: str) -> Command:
    return _pickled(28, Pickle().int32(tab_id).string(guid))


def set_tab_user_agent_override2(tab_id: int, user_agent: str,
                                 metadata: Optional[bytes] = None) -> Command:
    pickle = Pickle().int32(tab_id).string(user_agent).bool(metadata is not None)
    if metadata is not None:
        pickle.string(metadata)
    return _pickled(29, pickle)


def set_tab_data(tab_id: int, data: Dict[str, str]) -> Command:
    pickle = Pickle().int32(tab_id).int32(len(data))
    for key in sorted(data, key=lambda k: k.encode("utf-8")):
        pickle.string(key).string(data[key])
    return _pickled(30, pickle)


def set_window_user_title(window_id: int, title: str) -> Command:
    return _pickled(31, Pickle().int32(window_id).string(title))


def set_window_visible_on_all_workspaces(window_id: int, visible: bool) -> Command:
    return _struct(32, "<iB3x", window_id, 1 if visible else 0)


def add_tab_extra_data(tab_id: int, key: str, data: str) -> Command:
    return _pickled(33, Pickle().int32(tab_id).string(key).string(data))


def add_window_extra_data(window_id: int, key: str, data: str) -> Command:
    return _pickled(34, Pickle().int32(window_id).string(key).string(data))


def set_platform_session_id(platform_session_id: str) -> Command:
    """Layout not confirmed from Chromium's code (see the format document): one string."""
    return _pickled(35, Pickle().string(platform_session_id))


def set_split_tab(tab_id: int, split: Optional[Tuple[int, int]]) -> Command:
    high, low = split if split else (0, 0)
    return _struct(36, "<i4xQQB7x", tab_id, high, low, 1 if split else 0)


def set_split_tab_data(split: Tuple[int, int], ratio: float, layout: str = "Vertical") -> Command:
    return _pickled(37, Pickle().token(split).double(ratio).string(layout))


# ---------------------------------------------------------------------------------------------
# Tab restore service commands (tab_restore_service_impl.cc). Tabs_ files.

TAB_RESTORE_COMMAND_NAMES = {
    1: "UpdateTabNavigation", 2: "RestoredEntry", 3: "WindowDeprecated",
    4: "SelectedNavigationInTab", 5: "PinnedState", 6: "SetExtensionAppID",
    7: "SetWindowAppName", 8: "SetTabUserAgentOverride", 9: "Window", 10: "SetTabGroupData",
    11: "SetTabUserAgentOverride2", 12: "SetWindowUserTitle", 13: "CreateGroup",
    14: "AddTabExtraData", 15: "CreateSplit", 16: "SetTabSplitData",
    255: "InitialStateMarker",
}

# The tab restore service's own show-state numbers (SerializedWindowShowState).
TR_SHOW_DEFAULT, TR_SHOW_NORMAL, TR_SHOW_MINIMIZED = 0, 1, 2
TR_SHOW_MAXIMIZED, TR_SHOW_INACTIVE, TR_SHOW_FULLSCREEN = 3, 4, 5


def tr_update_tab_navigation(tab_id: int, navigation: Navigation) -> Command:
    pickle = Pickle().int32(tab_id)
    navigation.write(pickle)
    return _pickled(1, pickle)


def tr_restored_entry(entry_id: int) -> Command:
    return _struct(2, "<i", entry_id)


def tr_window_deprecated(window_id: int, selected_tab_index: int, num_tabs: int,
                         timestamp: Optional[int] = None) -> Command:
    """The two old fixed shapes: 12 bytes, or 24 with an int64 time after 4 bytes of padding."""
    if timestamp is None:
        return _struct(3, "<iii", window_id, selected_tab_index, num_tabs)
    return _struct(3, "<iii4xq", window_id, selected_tab_index, num_tabs, timestamp)


def tr_selected_navigation_in_tab(tab_id: int, index: int, timestamp: int) -> Command:
    """Starts a tab: int32 id, int32 selected index (among the persisted navigations), int64."""
    return _struct(4, "<iiq", tab_id, index, timestamp)


def tr_pinned_state() -> Command:
    """One bool, true; written only for pinned tabs, contents ignored."""
    return Command(5, b"\x01")


def tr_set_extension_app_id(tab_id: int, app_id: str) -> Command:
    return _pickled(6, Pickle().int32(tab_id).string(app_id))


def tr_set_window_app_name(window_id: int, app_name: str) -> Command:
    return _pickled(7, Pickle().int32(window_id).string(app_name))


def tr_set_tab_user_agent_override(tab_id: int, user_agent: str) -> Command:
    return _pickled(8, Pickle().int32(tab_id).string(user_agent))


def tr_window(window_id: int, selected_tab_index: int, num_tabs: int, timestamp: int,
              bounds: Tuple[int, int, int, int] = (0, 0, 0, 0),
              show_state: int = TR_SHOW_NORMAL, workspace: str = "",
              window_type: int = WINDOW_NORMAL) -> Command:
    """Starts a window of num_tabs tabs (the next num_tabs SelectedNavigationInTab commands)."""
    x, y, w, h = bounds
    pickle = Pickle().int32(window_id).int32(selected_tab_index).int32(num_tabs).int64(timestamp)
    pickle.int32(x).int32(y).int32(w).int32(h).int32(show_state)
    pickle.string(workspace if len(workspace.encode("utf-8")) <= 128 else "")
    pickle.int32(window_type)
    return _pickled(9, pickle)


def tr_set_tab_group_data(group: Tuple[int, int], title: str, color: int,
                          saved_id: Optional[str] = None) -> Command:
    pickle = Pickle().token(group).string16(title).uint32(color).bool(saved_id is not None)
    if saved_id is not None:
        pickle.string(saved_id)
    return _pickled(10, pickle)


def tr_set_tab_user_agent_override2(tab_id: int, user_agent: str,
                                    metadata: Optional[bytes] = None) -> Command:
    pickle = Pickle().int32(tab_id).string(user_agent).bool(metadata is not None)
    if metadata is not None:
        pickle.string(metadata)
    return _pickled(11, pickle)


def tr_set_window_user_title(window_id: int, title: str) -> Command:
    return _pickled(12, Pickle().int32(window_id).string(title))


def tr_create_group(group: Tuple[int, int], session_id: int, num_tabs: int, browser_id: int,
                    title: str, color: int, saved_id: Optional[str] = None) -> Command:
    """Starts a group of num_tabs tabs."""
    pickle = Pickle().token(group).int32(session_id).int32(num_tabs).int32(browser_id)
    pickle.string16(title).uint32(color).bool(saved_id is not None)
    if saved_id is not None:
        pickle.string(saved_id)
    return _pickled(13, pickle)


def tr_add_tab_extra_data(tab_id: int, key: str, data: str) -> Command:
    return _pickled(14, Pickle().int32(tab_id).string(key).string(data))


# ---------------------------------------------------------------------------------------------
# The full state as Chrome's reset writes it.

GMAX_PERSIST_NAVIGATION_COUNT = 6   # gMaxPersistNavigationCount (session_constants.cc)


@dataclass
class Group:
    token: Tuple[int, int]
    title: str
    color: int = COLOR_BLUE
    collapsed: bool = False
    saved_guid: Optional[str] = None


@dataclass
class Tab:
    id: int
    navigations: List[Navigation]
    current: Optional[int] = None   # the selected navigation's index (Navigation.index)
    pinned: bool = False
    group: Optional[Tuple[int, int]] = None
    last_active: int = 0            # microseconds since 1601
    extension_app_id: str = ""
    user_agent: str = ""
    storage_id: Optional[str] = None
    timestamp: int = 0              # closing time, for Tabs_ files

    def current_index(self) -> int:
        if self.current is not None:
            return self.current
        return self.navigations[-1].index


@dataclass
class Window:
    id: int
    tabs: List[Tab]
    selected: int = 0               # visual index of the active tab
    type: int = WINDOW_NORMAL
    bounds: Tuple[int, int, int, int] = (40, 40, 1280, 800)
    show_state: int = SHOW_NORMAL
    app_name: str = ""
    user_title: str = ""
    workspace: str = ""
    visible_on_all_workspaces: bool = False
    groups: List[Group] = field(default_factory=list)
    timestamp: int = 0              # closing time, for Tabs_ files


def tab_commands(window_id: int, tab: Tab, index_in_window: int) -> List[Command]:
    """BuildCommandsForTab (base, then SessionService's additions)."""
    commands = [set_tab_window(window_id, tab.id), last_active_time(tab.id, tab.last_active)]
    if tab.extension_app_id:
        commands.append(set_extension_app_id(tab.id, tab.extension_app_id))
    current = tab.current_index()
    low = max(current - GMAX_PERSIST_NAVIGATION_COUNT, 0)
    high = current + GMAX_PERSIST_NAVIGATION_COUNT
    for navigation in tab.navigations:
        if low <= navigation.index < high:
            commands.append(update_tab_navigation(tab.id, navigation))
    commands.append(set_selected_navigation_index(tab.id, current))
    if index_in_window != -1:
        commands.append(set_tab_index_in_window(tab.id, index_in_window))
    if tab.pinned:
        commands.append(set_pinned_state(tab.id, True))
    if tab.storage_id is not None:
        commands.append(session_storage_associated(tab.id, tab.storage_id))
    if tab.user_agent:
        commands.append(set_tab_user_agent_override2(tab.id, tab.user_agent))
    if tab.group is not None:
        commands.append(set_tab_group(tab.id, tab.group))
    return commands


def window_commands(window: Window) -> List[Command]:
    """BuildCommandsForBrowser: the window's own commands, its groups, then each tab in order."""
    x, y, w, h = window.bounds
    commands = [set_window_bounds3(window.id, x, y, w, h, window.show_state),
                set_window_type(window.id, window.type)]
    if window.app_name:
        commands.append(set_window_app_name(window.id, window.app_name))
    if window.user_title:
        commands.append(set_window_user_title(window.id, window.user_title))
    commands.append(set_window_workspace2(window.id, window.workspace))
    commands.append(set_window_visible_on_all_workspaces(window.id,
                                                         window.visible_on_all_workspaces))
    commands.append(set_selected_tab_in_index(window.id, window.selected))
    for group in window.groups:
        commands.append(set_tab_group_metadata2(group.token, group.title, group.color,
                                                group.collapsed, group.saved_guid))
    for index, tab in enumerate(window.tabs):
        commands += tab_commands(window.id, tab, index)
    return commands


def rebuild_commands(windows: Sequence[Window]) -> List[Command]:
    """BuildCommandsFromBrowsers: every tracked window in turn."""
    commands: List[Command] = []
    for window in windows:
        commands += window_commands(window)
    return commands


def encode(commands: Sequence[Command]) -> bytes:
    return b"".join(frame(command) for command in commands)


def file_bytes(initial: Sequence[Command], appended: Sequence[Command] = (),
               version: int = VERSION_WITH_MARKER, with_marker: Optional[bool] = None) -> bytes:
    """A file as Chrome's reset leaves it: header, the full state, the marker (versions 3 and 4
    only, unless with_marker says otherwise), then the commands appended since."""
    if with_marker is None:
        with_marker = version in (VERSION_WITH_MARKER, VERSION_ENCRYPTED_WITH_MARKER)
    parts = [header(version), encode(initial)]
    if with_marker:
        parts.append(frame(marker()))
    parts.append(encode(appended))
    return b"".join(parts)


def session_file(windows: Sequence[Window], appended: Sequence[Command] = (),
                 version: int = VERSION_WITH_MARKER, with_marker: Optional[bool] = None) -> bytes:
    return file_bytes(rebuild_commands(windows), appended, version, with_marker)


# Tab restore: ScheduleCommandsForTab / ScheduleCommandsForWindow / ScheduleCommandsForGroup.

@dataclass
class ClosedGroup:
    group: Group
    tabs: List[Tab]
    session_id: int
    browser_id: int


def closed_tab_commands(tab: Tab) -> List[Command]:
    """A closed tab: up to 6 navigations before the selected one and 12 in all; the selected
    index written is its position among the navigations written."""
    positions = {nav.index: i for i, nav in enumerate(tab.navigations)}
    selected = positions.get(tab.current_index(), len(tab.navigations) - 1)
    first = max(selected - GMAX_PERSIST_NAVIGATION_COUNT, 0)
    commands = [tr_selected_navigation_in_tab(tab.id, selected - first, tab.timestamp)]
    if tab.pinned:
        commands.append(tr_pinned_state())
    if tab.extension_app_id:
        commands.append(tr_set_extension_app_id(tab.id, tab.extension_app_id))
    if tab.user_agent:
        commands.append(tr_set_tab_user_agent_override2(tab.id, tab.user_agent))
    for navigation in tab.navigations[first:first + 2 * GMAX_PERSIST_NAVIGATION_COUNT]:
        commands.append(tr_update_tab_navigation(tab.id, navigation))
    return commands


def closed_tab_in_group_commands(tab: Tab, group: Group) -> List[Command]:
    commands = closed_tab_commands(tab)
    # The group data follows the tab's first command (and its pinned state, if any).
    at = 2 if tab.pinned else 1
    commands.insert(at, tr_set_tab_group_data(group.token, group.title, group.color,
                                              group.saved_guid))
    return commands


def closed_window_commands(window: Window) -> List[Command]:
    x, y, w, h = window.bounds
    commands = [tr_window(window.id, window.selected, len(window.tabs), window.timestamp,
                          (x, y, w, h), TR_SHOW_NORMAL, window.workspace, window.type)]
    if window.app_name:
        commands.append(tr_set_window_app_name(window.id, window.app_name))
    if window.user_title:
        commands.append(tr_set_window_user_title(window.id, window.user_title))
    groups = {group.token: group for group in window.groups}
    for tab in window.tabs:
        if tab.group in groups:
            commands += closed_tab_in_group_commands(tab, groups[tab.group])
        else:
            commands += closed_tab_commands(tab)
    return commands


def closed_group_commands(closed: ClosedGroup) -> List[Command]:
    group = closed.group
    commands = [tr_create_group(group.token, closed.session_id, len(closed.tabs),
                                closed.browser_id, group.title, group.color, group.saved_guid)]
    for tab in closed.tabs:
        commands += closed_tab_in_group_commands(tab, group)
    return commands


def tab_restore_commands(entries: Sequence[object]) -> List[Command]:
    """Entries oldest first, as OnWillSaveCommands writes them."""
    commands: List[Command] = []
    for entry in entries:
        if isinstance(entry, Window):
            commands += closed_window_commands(entry)
        elif isinstance(entry, ClosedGroup):
            commands += closed_group_commands(entry)
        else:
            commands += closed_tab_commands(entry)
    return commands


def tab_restore_file(entries: Sequence[object], appended: Sequence[Command] = (),
                     version: int = VERSION_WITH_MARKER) -> bytes:
    return file_bytes(tab_restore_commands(entries), appended, version)
