"""Plans built from other tools' data: NetBox's exports of a site (``planner.importers.netbox``)."""
