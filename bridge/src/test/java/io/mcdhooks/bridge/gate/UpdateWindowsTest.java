package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpdateWindowsTest {

    @Test
    void aPoolWithoutAScheduleIsAlwaysOpen() {
        UpdateWindows none = UpdateWindows.of(Map.of());

        assertThat(none.scheduled()).isFalse();
        assertThat(none.open(at("2026-12-03T12:00:00Z"))).isTrue();
    }

    @Test
    void aWindowCrossingMidnightIsOpenOnTheNextDayUntilItsLengthHasPassed() {
        // Thursday 23:00 UTC for 4 hours
        UpdateWindows thursdayNight = windows("Thu 23:00+4h UTC");

        assertThat(thursdayNight.open(at("2026-12-03T22:59:59Z"))).isFalse();
        assertThat(thursdayNight.open(at("2026-12-03T23:00:00Z"))).isTrue();
        assertThat(thursdayNight.open(at("2026-12-04T02:59:59Z"))).isTrue();
        assertThat(thursdayNight.open(at("2026-12-04T03:00:00Z"))).isFalse();
        assertThat(thursdayNight.closesAt(at("2026-12-04T01:00:00Z"))).contains(at("2026-12-04T03:00:00Z"));
        // and from Friday on it waits a week
        assertThat(thursdayNight.nextOpening(at("2026-12-04T03:00:00Z"))).contains(at("2026-12-10T23:00:00Z"));
        assertThat(thursdayNight.describe(at("2026-12-04T03:00:00Z")))
                .isEqualTo("outside its update windows Thu 23:00+4h UTC, waiting for Thu 2026-12-10 23:00 UTC");
    }

    @Test
    void aWindowStartsAtTheZonesWallClockTimeAcrossDaylightSavingChanges() {
        UpdateWindows berlin = windows("Sun 01:00+3h Europe/Berlin");

        // Summer time (UTC+2) on 2026-10-18, winter time (UTC+1) after 2026-10-25's change
        assertThat(berlin.nextOpening(at("2026-10-17T00:00:00Z"))).contains(at("2026-10-17T23:00:00Z"));
        assertThat(berlin.nextOpening(at("2026-10-30T00:00:00Z"))).contains(at("2026-11-01T00:00:00Z"));

        // On the night clocks go back (03:00 CEST → 02:00 CET), 3 hours are 3 hours elapsed
        assertThat(berlin.nextOpening(at("2026-10-24T00:00:00Z"))).contains(at("2026-10-24T23:00:00Z"));
        assertThat(berlin.open(at("2026-10-25T01:59:59Z"))).isTrue();
        assertThat(berlin.open(at("2026-10-25T02:00:00Z"))).isFalse();
    }

    @Test
    void aStartThatDaylightSavingSkipsMovesOnByTheGap() {
        // 2027-03-28 in Berlin goes from 02:00 CET straight to 03:00 CEST: there is no 02:30, and the
        // window opens an hour later on the wall clock, 03:30 CEST, as java.time resolves it
        UpdateWindows skipped = windows("Sun 02:30+1h Europe/Berlin");

        assertThat(skipped.nextOpening(at("2027-03-27T12:00:00Z"))).contains(at("2027-03-28T01:30:00Z"));
    }

    @Test
    void severalWindowsOpenAtTheEarliestAndAFreezeKeepsThemAllShut() {
        UpdateWindows schedule = UpdateWindows.of(Map.of(
                UpdateWindows.WINDOWS,
                "Mon-Fri 22:00+2h UTC; Sat,Sun 10:00+8h UTC",
                UpdateWindows.FREEZE,
                "2026-12-19T00:00:00Z/2027-01-04T00:00:00Z"));

        // Thursday 3 December at noon: the next is that evening's
        assertThat(schedule.nextOpening(at("2026-12-03T12:00:00Z"))).contains(at("2026-12-03T22:00:00Z"));
        // Saturday morning: the weekend window
        assertThat(schedule.nextOpening(at("2026-12-05T08:00:00Z"))).contains(at("2026-12-05T10:00:00Z"));
        // inside the freeze nothing opens; the first window after it is Monday 4 January's
        assertThat(schedule.open(at("2026-12-19T11:00:00Z"))).isFalse();
        assertThat(schedule.nextOpening(at("2026-12-20T00:00:00Z"))).contains(at("2027-01-04T22:00:00Z"));
        // and a window a freeze starts in closes with it
        assertThat(schedule.closesAt(at("2026-12-18T23:00:00Z"))).contains(at("2026-12-19T00:00:00Z"));
    }

    @Test
    void aFreezeAloneOpensWhenItEnds() {
        UpdateWindows notBefore = UpdateWindows.of(Map.of(UpdateWindows.FREEZE, "/2027-01-04T00:00:00Z"));

        assertThat(notBefore.open(at("2026-12-24T00:00:00Z"))).isFalse();
        assertThat(notBefore.nextOpening(at("2026-12-24T00:00:00Z"))).contains(at("2027-01-04T00:00:00Z"));
        assertThat(notBefore.open(at("2027-01-04T00:00:00Z"))).isTrue();
        assertThat(notBefore.describe(at("2026-12-24T00:00:00Z")))
                .isEqualTo("frozen, waiting for Mon 2027-01-04 00:00 UTC");
        assertThat(notBefore.describe(at("2027-01-05T00:00:00Z"))).isEqualTo("not frozen");
    }

    @Test
    void aScheduleThatDoesNotParseKeepsThePoolClosedAndSaysWhy() {
        UpdateWindows typo = windows("Thurs 23:00+4h UTC");

        assertThat(typo.open(at("2026-12-03T23:30:00Z"))).isFalse();
        assertThat(typo.nextOpening(at("2026-12-03T23:30:00Z"))).isEmpty();
        assertThat(typo.describe(at("2026-12-03T23:30:00Z")))
                .isEqualTo("closed: mcdhooks.io/update-windows: 'Thurs' in 'Thurs 23:00+4h UTC' is not a day"
                        + " (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
        assertThat(windows("Mon 22:00+8d UTC").invalid()).contains("at most 7 days");
        assertThat(windows("Mon 22:00+1h Mars/Olympus").invalid()).contains("is not a time zone");
        assertThat(UpdateWindows.of(Map.of(UpdateWindows.FREEZE, "2027-01-04T00:00:00Z/2026-12-20T00:00:00Z"))
                        .invalid())
                .contains("ends before it begins");
    }

    private static UpdateWindows windows(String text) {
        return UpdateWindows.of(Map.of(UpdateWindows.WINDOWS, text));
    }

    private static Instant at(String text) {
        return Instant.parse(text);
    }
}
