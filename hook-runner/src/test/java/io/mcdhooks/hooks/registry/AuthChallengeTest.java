package io.mcdhooks.hooks.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AuthChallengeTest {

    @Test
    void readsABearerChallengeWhoseQuotedScopeHoldsCommas() {
        List<AuthChallenge> challenges =
                AuthChallenge.parse("Bearer realm=\"https://auth.example/token\",service=\"registry.example\","
                        + "scope=\"repository:gpu/nvidia:pull,push\",error=\"insufficient_scope\"");

        assertThat(challenges).singleElement().satisfies(c -> {
            assertThat(c.isBearer()).isTrue();
            assertThat(c.param("realm")).isEqualTo("https://auth.example/token");
            assertThat(c.param("Service")).isEqualTo("registry.example");
            assertThat(c.param("scope")).isEqualTo("repository:gpu/nvidia:pull,push");
        });
    }

    @Test
    void readsSeveralChallengesEscapesAndUnquotedValues() {
        List<AuthChallenge> challenges =
                AuthChallenge.parse(List.of("Basic realm=\"say \\\"hi\\\"\", Bearer realm=https://a.example/t"));

        assertThat(challenges).hasSize(2);
        assertThat(challenges.get(0).isBasic()).isTrue();
        assertThat(challenges.get(0).param("realm")).isEqualTo("say \"hi\"");
        assertThat(challenges.get(1).param("realm")).isEqualTo("https://a.example/t");
    }

    @Test
    void anUnclosedQuoteYieldsNoChallengeRatherThanAGuess() {
        assertThat(AuthChallenge.parse("Bearer realm=\"https://auth.example/token"))
                .isEmpty();
        assertThat(AuthChallenge.parse("")).isEmpty();
    }
}
