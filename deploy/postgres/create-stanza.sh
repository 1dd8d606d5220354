#!/bin/sh
# The postgres image runs this once, on the first start with an empty data volume, while
# its temporary server is up: the stanza must exist before archive_command can succeed.
# A volume made before archiving was set up: run the same command once by hand
# (docs/operations.md, "Backups and point-in-time recovery").
pgbackrest --stanza=yukon stanza-create
