"""The table's phone page: a small web server inside the kiosk (Starlette on uvicorn, its own thread and event
loop) that shows the table live on the players' phones and lets a player claim a seat, name it and (open
variant) place their bet. Modules: ``view`` (table -> JSON view), ``seats`` (claims and tokens), ``inputs``
(phone request -> checked text input), ``guard`` (origin and rate checks), ``hub`` (web-thread state),
``app`` (routes), ``server`` (the thread), ``sink`` (kiosk side), ``start`` (hook-up in the kiosk wiring).
"""
