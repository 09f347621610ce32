"""Play, watch and analyse every game in the browser: ``rivals serve``.

The server (Starlette on uvicorn, the optional extra ``rivals[web]``) holds every game; a
browser is shown only what its seat may see. ``rivals.web.command`` adds the sub-command and
needs none of the extra's packages until the server starts; ``rivals.web.app.create_app``
builds the application (docs/web.md).
"""
