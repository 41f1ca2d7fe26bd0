package org.caseassignments.api.rulesetarchive;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.util.Optional;

import org.caseassignments.api.policy.RulesetArchive;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The {@code accepted_rulesets} table: one row per jurisdiction, the newest accepted document. */
@Repository
class JdbcRulesetArchive implements RulesetArchive {

    private static final String SAVE = """
            INSERT INTO accepted_rulesets (jurisdiction, version, origin, content, accepted_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (jurisdiction) DO UPDATE
               SET version = excluded.version, origin = excluded.origin, content = excluded.content,
                   accepted_at = excluded.accepted_at""";

    private static final String FIND = """
            SELECT jurisdiction, version, origin, content, accepted_at FROM accepted_rulesets WHERE jurisdiction = ?""";

    private static final String REMOVE = "DELETE FROM accepted_rulesets WHERE jurisdiction = ?";

    private final JdbcTemplate jdbc;

    JdbcRulesetArchive(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void save(Accepted accepted) {
        jdbc.update(SAVE, accepted.jurisdiction(), accepted.version(), accepted.origin(), accepted.text(),
                Timestamp.from(accepted.acceptedAt()));
    }

    @Override
    public Optional<Accepted> find(String jurisdiction) {
        return jdbc.query(FIND, JdbcRulesetArchive::map, jurisdiction).stream().findFirst();
    }

    @Override
    public void remove(String jurisdiction) {
        jdbc.update(REMOVE, jurisdiction);
    }

    private static Accepted map(ResultSet rs, int row) throws SQLException {
        return new Accepted(rs.getString("jurisdiction"), rs.getString("version"), rs.getString("origin"),
                rs.getString("content"), rs.getObject("accepted_at", OffsetDateTime.class).toInstant());
    }
}
