package shell

// The guest has no /usr/share/zoneinfo, so the zone database is built in:
// TZ=Europe/Paris date and printf '%(%H:%M)T' then work as on the host.
import _ "time/tzdata"
