package org.caseassignments.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PromQlTests {

    @Test
    void shouldFindTheMetricsOfAQuantileOverARateLeavingOutFunctionsLabelsAndRanges() {
        assertThat(PromQl.metricNames("histogram_quantile(0.99, sum by (le, uri) "
                + "(rate(http_server_requests_seconds_bucket{application=\"api\",uri=~\"/a|/b\"}[$__rate_interval])))"))
                .containsExactly("http_server_requests_seconds_bucket");
    }

    @Test
    void shouldFindEveryOperandOfBinaryAndSetOperators() {
        assertThat(PromQl.metricNames("max by (instance) (a_pending) > 0 and on (instance) b_active >= bool c_max "
                + "or sum without (pod) (increase(d_total[5m] offset 1h)) / ignoring (x) group_left (y) e"))
                .containsExactly("a_pending", "b_active", "c_max", "d_total", "e");
    }

    @Test
    void shouldNotTakeStringsNumbersDurationsOrGrafanaVariablesForMetrics() {
        assertThat(PromQl.metricNames("label_replace(up_time{job=\"x\"}, \"dst\", \"$1\", \"src\", \"(.*)\") * 1.5e3 "
                + "+ 0x1f - inf + foo[1h30m:1m] + ${var} + $instance"))
                .containsExactly("up_time", "foo");
    }

    @Test
    void shouldRefuseWhatItCannotRead() {
        assertThatThrownBy(() -> PromQl.metricNames("sum(rate(x[5m])")).hasMessageContaining("unclosed '('");
        assertThatThrownBy(() -> PromQl.metricNames("x{a=\"b}")).hasMessageContaining("unclosed string");
        assertThatThrownBy(() -> PromQl.metricNames("x) + y")).hasMessageContaining("unbalanced ')'");
        assertThatThrownBy(() -> PromQl.metricNames("x ; y")).hasMessageContaining("unexpected ';'");
    }

    @Test
    void shouldReadTheSampleNamesOfAPrometheusScrape() {
        String scrape = """
                # HELP x_total things
                # TYPE x_total counter
                x_total{application="projector",reason="A"} 1.0
                y_seconds_bucket{le="0.1"} 3
                z 4
                """;

        assertThat(OpsDefinitions.exposed(scrape)).containsExactly("x_total", "y_seconds_bucket", "z");
    }
}
