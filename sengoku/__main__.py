from sengoku.cli import main

raise SystemExit(main())
