from companion.interrupt import guard_start

guard_start()  # Ctrl-C from here on is a quiet exit 130 (companion.interrupt), before the heavy imports

from companion.cli import main  # noqa: E402

raise SystemExit(main())
