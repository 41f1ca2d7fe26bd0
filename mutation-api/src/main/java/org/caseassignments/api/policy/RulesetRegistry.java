package org.caseassignments.api.policy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The rulesets in force, one per jurisdiction. The bundled ones ({@value #BUNDLED} on the classpath)
 * are the base; a file {@code <jurisdiction>.yaml|.yml|.json} in the configured directory replaces the
 * bundled one of that jurisdiction or adds a new jurisdiction.
 *
 * <p>{@link #reload()} re-reads the directory. A changed file that compiles and passes vetting takes
 * effect at once and is saved to the {@link RulesetArchive}; one that does not is rejected with an
 * ERROR log line and its jurisdiction keeps the version it served before. When nothing served it
 * before (a restart), the archived version, vetted again, serves instead; without one the
 * jurisdiction is denied. A removed file gives its jurisdiction back to the bundled default, or to
 * nobody (deny), and its archived version is dropped. Readers see one consistent map; reloads are
 * serialized.
 */
final class RulesetRegistry {

    static final String BUNDLED = "classpath*:policy/rulesets/*.*";
    private static final Set<String> EXTENSIONS = Set.of("yaml", "yml", "json");
    private static final Logger log = LoggerFactory.getLogger(RulesetRegistry.class);

    /** What serves a jurisdiction, with the content hash of the file it came from (null when bundled). */
    private record Served(Ruleset ruleset, String contentHash) {
    }

    /** The outcome of one reload, for the caller and for tests. */
    record ReloadReport(List<String> accepted, List<String> rejected, Map<String, String> versions) {
    }

    private final RulesetCompiler compiler;
    private final RulesetArchive archive;
    private final Map<String, Ruleset> bundled;
    private final Path directory;
    private final Map<Path, String> rejectedHashes = new HashMap<>();
    private volatile Map<String, Served> active = Map.of();
    private volatile boolean missingDirectoryReported;

    /** @param directory null to serve the bundled rulesets only */
    RulesetRegistry(Path directory) {
        this(directory, RulesetCompiler.service(), RulesetArchive.NONE);
    }

    RulesetRegistry(Path directory, RulesetCompiler compiler, RulesetArchive archive) {
        this.compiler = compiler;
        this.archive = archive;
        this.bundled = loadBundled(compiler);
        this.directory = directory;
        reload();
    }

    Optional<Ruleset> forJurisdiction(String jurisdiction) {
        Served served = jurisdiction == null ? null : active.get(jurisdiction);
        return served == null ? Optional.empty() : Optional.of(served.ruleset());
    }

    /** Jurisdiction → version currently served. */
    Map<String, String> versions() {
        Map<String, String> versions = new TreeMap<>();
        active.forEach((jurisdiction, served) -> versions.put(jurisdiction, served.ruleset().version()));
        return versions;
    }

    /** Files whose current content was rejected; their jurisdictions serve their last good version. */
    synchronized Set<Path> rejectedFiles() {
        return Set.copyOf(rejectedHashes.keySet());
    }

    synchronized ReloadReport reload() {
        Map<String, Served> previous = active;
        Map<String, Served> next = new TreeMap<>();
        bundled.forEach((jurisdiction, ruleset) -> next.put(jurisdiction, new Served(ruleset, null)));
        List<String> accepted = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        Map<String, List<Path>> filesByJurisdiction = filesByJurisdiction();
        forgetRemoved(previous, filesByJurisdiction);
        rejectedHashes.keySet().retainAll(filesByJurisdiction.values().stream().flatMap(List::stream).toList());
        for (Map.Entry<String, List<Path>> entry : filesByJurisdiction.entrySet()) {
            String jurisdiction = entry.getKey();
            List<Path> files = entry.getValue();
            if (files.size() > 1) {
                rejectOnce(files.get(0), "ambiguous", jurisdiction, "several files name this jurisdiction: " + files,
                        previous, next, rejected);
                continue;
            }
            Path file = files.get(0);
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                rejectOnce(file, "unreadable", jurisdiction, "cannot be read: " + e.getMessage(), previous, next, rejected);
                continue;
            }
            String hash = sha256(text);
            Served current = previous.get(jurisdiction);
            if (current != null && hash.equals(current.contentHash())
                    && current.ruleset().origin().equals(file.toString())) {
                next.put(jurisdiction, current);
                continue;
            }
            try {
                Ruleset ruleset = compiler.compile(text, jurisdiction, file.toString());
                next.put(jurisdiction, new Served(ruleset, hash));
                archive(ruleset, text);
                rejectedHashes.remove(file);
                accepted.add(file.toString());
            } catch (InvalidRuleset e) {
                rejectOnce(file, hash, jurisdiction, e.getMessage(), previous, next, rejected);
            }
        }
        logChanges(previous, next);
        active = Map.copyOf(next);
        return new ReloadReport(accepted, rejected, versions());
    }

    /** Keeps the last good version of the jurisdiction; logs a given bad content once, not on every poll. */
    private void rejectOnce(Path file, String hash, String jurisdiction, String reason, Map<String, Served> previous,
                            Map<String, Served> next, List<String> rejected) {
        Served lastGood = previous.containsKey(jurisdiction) ? previous.get(jurisdiction) : restore(jurisdiction);
        if (lastGood != null) {
            next.put(jurisdiction, lastGood);
        } else {
            next.remove(jurisdiction);
        }
        if (hash.equals(rejectedHashes.put(file, hash))) {
            return;
        }
        rejected.add(file.toString());
        log.error("Rejected ruleset file {} for jurisdiction {}: {}. {}", file, jurisdiction, reason,
                lastGood == null
                        ? "No version of this jurisdiction is served, so its requests are denied."
                        : "Still serving version " + lastGood.ruleset().version() + " from " + lastGood.ruleset().origin()
                                + "; fix the file and it is picked up on the next reload.");
    }

    /** The archived version of a jurisdiction nothing serves yet (after a restart), if it still passes vetting. */
    private Served restore(String jurisdiction) {
        Optional<RulesetArchive.Accepted> accepted;
        try {
            accepted = archive.find(jurisdiction);
        } catch (RuntimeException e) {
            log.error("Cannot read the archived ruleset of jurisdiction {}: {}", jurisdiction, e.getMessage(), e);
            return null;
        }
        if (accepted.isEmpty()) {
            return null;
        }
        RulesetArchive.Accepted last = accepted.get();
        try {
            Ruleset ruleset = compiler.compile(last.text(), jurisdiction, "archive (accepted " + last.acceptedAt()
                    + " from " + last.origin() + ")");
            return new Served(ruleset, sha256(last.text()));
        } catch (InvalidRuleset e) {
            log.error("The archived ruleset of jurisdiction {} (version {}) no longer passes vetting: {}", jurisdiction,
                    last.version(), e.getMessage());
            return null;
        }
    }

    private void archive(Ruleset ruleset, String text) {
        try {
            archive.save(new RulesetArchive.Accepted(ruleset.jurisdiction(), ruleset.version(), ruleset.origin(), text,
                    Instant.now()));
        } catch (RuntimeException e) {
            log.error("Cannot archive ruleset {} version {}; it serves, but a restart with an invalid file would not "
                    + "find it: {}", ruleset.jurisdiction(), ruleset.version(), e.getMessage(), e);
        }
    }

    /** A replacement whose file is gone must not come back from the archive after a restart. */
    private void forgetRemoved(Map<String, Served> previous, Map<String, List<Path>> files) {
        if (directory == null || !Files.isDirectory(directory)) {
            return; // an unmounted directory is not a removal
        }
        for (Map.Entry<String, Served> entry : previous.entrySet()) {
            if (entry.getValue().contentHash() != null && !files.containsKey(entry.getKey())) {
                try {
                    archive.remove(entry.getKey());
                } catch (RuntimeException e) {
                    log.error("Cannot drop the archived ruleset of jurisdiction {}: {}", entry.getKey(), e.getMessage(), e);
                }
            }
        }
    }

    private static void logChanges(Map<String, Served> previous, Map<String, Served> next) {
        for (Map.Entry<String, Served> entry : next.entrySet()) {
            Served before = previous.get(entry.getKey());
            Ruleset now = entry.getValue().ruleset();
            if (before == null || before.ruleset() != now) {
                log.info("Serving ruleset {} version {} from {}{}; updates compare under the row lock what its rules "
                                + "read: {}", entry.getKey(), now.version(), now.origin(),
                        before == null ? "" : " (was version " + before.ruleset().version() + " from "
                                + before.ruleset().origin() + ")", now.updateReads());
            }
        }
        for (Map.Entry<String, Served> entry : previous.entrySet()) {
            if (!next.containsKey(entry.getKey())) {
                log.warn("No ruleset serves jurisdiction {} any more (its file was removed); its requests are denied",
                        entry.getKey());
            }
        }
    }

    private Map<String, List<Path>> filesByJurisdiction() {
        Map<String, List<Path>> files = new TreeMap<>();
        if (directory == null) {
            return files;
        }
        if (!Files.isDirectory(directory)) {
            if (!missingDirectoryReported) {
                missingDirectoryReported = true;
                log.warn("Ruleset directory {} does not exist; serving the bundled rulesets until it does", directory);
            }
            return files;
        }
        missingDirectoryReported = false;
        try (Stream<Path> listing = Files.list(directory)) {
            listing.filter(Files::isRegularFile).sorted().forEach(file -> {
                String name = file.getFileName().toString();
                int dot = name.lastIndexOf('.');
                if (dot > 0 && EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT))) {
                    files.computeIfAbsent(name.substring(0, dot), key -> new ArrayList<>()).add(file);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list ruleset directory " + directory, e);
        }
        return files;
    }

    private static Map<String, Ruleset> loadBundled(RulesetCompiler compiler) {
        Map<String, Ruleset> rulesets = new TreeMap<>();
        try {
            for (Resource resource : new PathMatchingResourcePatternResolver().getResources(BUNDLED)) {
                String name = Objects.requireNonNull(resource.getFilename());
                int dot = name.lastIndexOf('.');
                if (dot <= 0 || !EXTENSIONS.contains(name.substring(dot + 1))) {
                    continue;
                }
                try (InputStream in = resource.getInputStream()) {
                    String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                    rulesets.put(name.substring(0, dot),
                            compiler.compile(text, name.substring(0, dot), "classpath:policy/rulesets/" + name));
                }
            }
        } catch (IOException | InvalidRuleset e) {
            throw new IllegalStateException("A bundled ruleset is broken; this build cannot serve: " + e.getMessage(), e);
        }
        return rulesets;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
