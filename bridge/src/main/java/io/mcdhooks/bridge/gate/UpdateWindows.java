package io.mcdhooks.bridge.gate;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a pool may take new nodes into an update: its maintenance windows and freezes, as written
 * on the MachineConfigPool. Pure: every answer is for an instant the caller gives.
 *
 * <ul>
 *   <li>{@value #WINDOWS}: windows separated by {@code ;}, each {@code DAYS HH:MM+LENGTH ZONE},
 *       e.g. {@code Mon-Fri 22:00+6h Europe/Berlin; Sat,Sun 00:00+24h UTC}. DAYS are {@code Mon}
 *       to {@code Sun}, ranges ({@code Mon-Fri}) and lists, or {@code daily}; the start is the
 *       zone's wall-clock time on such a day, LENGTH elapsed time ({@code 90m}, {@code 4h},
 *       {@code 1h30m}, at most 7 days), so a window may cross midnight. A start that daylight
 *       saving skips moves on by the gap (02:30 on the night Berlin skips 02:00–03:00 is 03:30
 *       CEST); one it repeats is the first of the two.
 *   <li>{@value #FREEZE}: intervals separated by {@code ,}, each {@code FROM/UNTIL} in RFC 3339,
 *       either end left empty for "since ever" or "for ever": no window opens inside one.
 * </ul>
 *
 * A pool without either annotation is always open. An annotation that does not parse makes the
 * pool closed, with the error as its reason: a typo never lets a rollout start.
 */
public final class UpdateWindows {

    public static final String WINDOWS = "mcdhooks.io/update-windows";
    public static final String FREEZE = "mcdhooks.io/update-freeze";

    private static final Pattern WINDOW =
            Pattern.compile("\\s*(\\S+)\\s+(\\d{1,2}):(\\d{2})\\+((?:\\d+[dhm])+)\\s+(\\S+)\\s*");
    private static final DateTimeFormatter MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT);
    /** For a freeze's end or a pause, which need not fall on a minute. */
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z", Locale.ROOT);

    private static final Pattern LENGTH_PART = Pattern.compile("(\\d+)([dhm])");
    private static final Duration LONGEST = Duration.ofDays(7);
    /** How far ahead a next opening is looked for: a freeze longer than this reads as "not known". */
    private static final int HORIZON_DAYS = 400;

    private static final UpdateWindows ALWAYS = new UpdateWindows(List.of(), List.of(), null, false);

    private final List<Window> windows;
    private final List<Freeze> freezes;
    private final String invalid;
    private final boolean scheduled;

    /** One window: on {@code days}, from {@code start} in {@code zone}, for {@code length}. */
    public record Window(Set<DayOfWeek> days, LocalTime start, Duration length, ZoneId zone, String text) {}

    /** No window opens in [{@code from}, {@code until}); either may be null for an open end. */
    public record Freeze(Instant from, Instant until) {
        boolean covers(Instant at) {
            return (from == null || !at.isBefore(from)) && (until == null || at.isBefore(until));
        }
    }

    private UpdateWindows(List<Window> windows, List<Freeze> freezes, String invalid, boolean scheduled) {
        this.windows = List.copyOf(windows);
        this.freezes = List.copyOf(freezes);
        this.invalid = invalid;
        this.scheduled = scheduled;
    }

    /** The schedule a pool's annotations give. */
    public static UpdateWindows of(Map<String, String> annotations) {
        String windowText = annotations.get(WINDOWS);
        String freezeText = annotations.get(FREEZE);
        if (windowText == null && freezeText == null) {
            return ALWAYS;
        }
        List<Window> windows = new ArrayList<>();
        List<Freeze> freezes = new ArrayList<>();
        try {
            if (windowText != null) {
                for (String part : windowText.split(";", -1)) {
                    windows.add(window(part));
                }
            }
            if (freezeText != null) {
                for (String part : freezeText.split(",", -1)) {
                    freezes.add(freeze(part));
                }
            }
        } catch (IllegalArgumentException e) {
            return new UpdateWindows(List.of(), List.of(), e.getMessage(), true);
        }
        return new UpdateWindows(windows, freezes, null, true);
    }

    /** Whether the pool has a schedule at all (else it is always open). */
    public boolean scheduled() {
        return scheduled;
    }

    /** Why the schedule could not be read, or null. */
    public String invalid() {
        return invalid;
    }

    /** Whether a pool may take new nodes into an update at {@code at}. */
    public boolean open(Instant at) {
        if (!scheduled) {
            return true;
        }
        if (invalid != null || frozen(at)) {
            return false;
        }
        return windows.isEmpty() || containing(at).isPresent();
    }

    /** When the pool opens next: {@code at} itself if open now; empty if not within the horizon. */
    public Optional<Instant> nextOpening(Instant at) {
        if (open(at)) {
            return Optional.of(at);
        }
        if (invalid != null) {
            return Optional.empty();
        }
        if (windows.isEmpty()) {
            return freezes.stream()
                    .filter(f -> f.covers(at))
                    .map(Freeze::until)
                    .reduce((a, b) -> a == null || b == null ? null : a.isAfter(b) ? a : b)
                    .flatMap(until -> until == null ? Optional.empty() : nextOpening(until));
        }
        Instant best = null;
        for (Window w : windows) {
            LocalDate first =
                    at.atZone(w.zone()).toLocalDate().minusDays(w.length().toDays() + 1);
            for (int d = 0; d <= HORIZON_DAYS; d++) {
                LocalDate day = first.plusDays(d);
                if (!w.days().contains(day.getDayOfWeek())) {
                    continue;
                }
                Instant start = ZonedDateTime.of(day, w.start(), w.zone()).toInstant();
                Instant end = start.plus(w.length());
                Instant candidate = unfrozenFrom(start.isBefore(at) ? at : start);
                if (candidate != null && candidate.isBefore(end) && !candidate.isBefore(at)) {
                    if (best == null || candidate.isBefore(best)) {
                        best = candidate;
                    }
                    break;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** While open: when the window it is in ends (or a freeze begins); empty if open without end. */
    public Optional<Instant> closesAt(Instant at) {
        if (!open(at)) {
            return Optional.empty();
        }
        Instant end = windows.isEmpty() ? null : containing(at).orElseThrow();
        for (Freeze f : freezes) {
            if (f.from() != null
                    && f.from().isAfter(at)
                    && (end == null || f.from().isBefore(end))) {
                end = f.from();
            }
        }
        return Optional.ofNullable(end);
    }

    /** For people: what the schedule is and, at {@code at}, when it next opens or closes. */
    public String describe(Instant at) {
        if (!scheduled) {
            return "no update windows";
        }
        if (invalid != null) {
            return "closed: " + invalid;
        }
        String waiting = nextOpening(at)
                .map(n -> "waiting for " + local(n))
                .orElse("no window opens within " + HORIZON_DAYS + " days");
        if (windows.isEmpty()) {
            return open(at)
                    ? "not frozen"
                            + closesAt(at)
                                    .map(c -> ", until the freeze from " + local(c))
                                    .orElse("")
                    : "frozen, " + waiting;
        }
        String schedule = "update windows "
                + String.join("; ", windows.stream().map(Window::text).toList());
        if (open(at)) {
            return "inside its " + schedule
                    + closesAt(at).map(c -> ", until " + local(c)).orElse("");
        }
        return "outside its " + schedule + ", " + waiting;
    }

    /** {@code at} for people, in the zone of the first window (UTC without one). */
    String local(Instant at) {
        ZoneId zone = windows.isEmpty() ? ZoneId.of("UTC") : windows.get(0).zone();
        ZonedDateTime time = at.atZone(zone);
        return time.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT) + " "
                + time.format(time.getSecond() == 0 ? MINUTES : SECONDS);
    }

    /** The end of the window {@code at} is in, if any. */
    private Optional<Instant> containing(Instant at) {
        Instant latestEnd = null;
        for (Window w : windows) {
            LocalDate today = at.atZone(w.zone()).toLocalDate();
            for (long back = w.length().toDays() + 1; back >= 0; back--) {
                LocalDate day = today.minusDays(back);
                if (!w.days().contains(day.getDayOfWeek())) {
                    continue;
                }
                Instant start = ZonedDateTime.of(day, w.start(), w.zone()).toInstant();
                Instant end = start.plus(w.length());
                if (!at.isBefore(start) && at.isBefore(end) && (latestEnd == null || end.isAfter(latestEnd))) {
                    latestEnd = end;
                }
            }
        }
        return Optional.ofNullable(latestEnd);
    }

    private boolean frozen(Instant at) {
        return freezes.stream().anyMatch(f -> f.covers(at));
    }

    /** The first instant from {@code at} on that no freeze covers; null if frozen for ever. */
    private Instant unfrozenFrom(Instant at) {
        Instant t = at;
        for (int i = 0; i <= freezes.size(); i++) {
            Instant now = t;
            Optional<Freeze> covering =
                    freezes.stream().filter(f -> f.covers(now)).findFirst();
            if (covering.isEmpty()) {
                return t;
            }
            if (covering.get().until() == null) {
                return null;
            }
            t = covering.get().until();
        }
        return frozen(t) ? null : t;
    }

    private static Window window(String text) {
        Matcher m = WINDOW.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(WINDOWS + ": '" + text.strip()
                    + "' is not DAYS HH:MM+LENGTH ZONE, e.g. Mon-Fri 22:00+6h Europe/Berlin");
        }
        Set<DayOfWeek> days = days(m.group(1), text);
        int hour = Integer.parseInt(m.group(2));
        int minute = Integer.parseInt(m.group(3));
        if (hour > 23 || minute > 59) {
            throw new IllegalArgumentException(WINDOWS + ": '" + text.strip() + "' has no such time of day");
        }
        Duration length = Duration.ZERO;
        Matcher part = LENGTH_PART.matcher(m.group(4));
        while (part.find()) {
            long n = Long.parseLong(part.group(1));
            length = length.plus(
                    switch (part.group(2)) {
                        case "d" -> Duration.ofDays(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofMinutes(n);
                    });
        }
        if (length.isZero() || length.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(
                    WINDOWS + ": '" + text.strip() + "' must last more than 0 and at most 7 days");
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(m.group(5));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    WINDOWS + ": '" + m.group(5) + "' is not a time zone (e.g. UTC, Europe/Berlin)");
        }
        return new Window(days, LocalTime.of(hour, minute), length, zone, text.strip());
    }

    private static Set<DayOfWeek> days(String text, String window) {
        if (text.equalsIgnoreCase("daily")) {
            return EnumSet.allOf(DayOfWeek.class);
        }
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String item : text.split(",", -1)) {
            String[] range = item.split("-", -1);
            if (range.length > 2) {
                throw new IllegalArgumentException(
                        WINDOWS + ": '" + item + "' in '" + window.strip() + "' is not a day or a range of days");
            }
            DayOfWeek from = day(range[0], window);
            DayOfWeek to = range.length == 2 ? day(range[1], window) : from;
            for (DayOfWeek d = from; ; d = d.plus(1)) {
                days.add(d);
                if (d == to) {
                    break;
                }
            }
        }
        return days;
    }

    private static DayOfWeek day(String text, String window) {
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.getDisplayName(TextStyle.SHORT, Locale.ROOT).equalsIgnoreCase(text)) {
                return d;
            }
        }
        throw new IllegalArgumentException(WINDOWS + ": '" + text + "' in '" + window.strip()
                + "' is not a day (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
    }

    private static Freeze freeze(String text) {
        String[] ends = text.strip().split("/", -1);
        if (ends.length != 2 || ends[0].isBlank() && ends[1].isBlank()) {
            throw new IllegalArgumentException(FREEZE + ": '" + text.strip()
                    + "' is not FROM/UNTIL in RFC 3339, e.g. 2026-12-20T00:00:00Z/2027-01-04T00:00:00Z");
        }
        Instant from = instant(ends[0], text);
        Instant until = instant(ends[1], text);
        if (from != null && until != null && !until.isAfter(from)) {
            throw new IllegalArgumentException(FREEZE + ": '" + text.strip() + "' ends before it begins");
        }
        return new Freeze(from, until);
    }

    private static Instant instant(String text, String freeze) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text.strip()).toInstant();
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    FREEZE + ": '" + text.strip() + "' in '" + freeze.strip() + "' is not an RFC 3339 time");
        }
    }
}
