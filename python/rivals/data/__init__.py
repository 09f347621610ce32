"""The data files that ship with rivals (card sets, maps, expansions), one JSON file each; their
formats are in docs/formats.md. A package (not a bare folder) so that
``importlib.resources.files("rivals.data")`` finds them on every supported Python."""
