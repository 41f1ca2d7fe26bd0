package org.caseassignments.api.requestid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class RequestIdFilterTests {

    @Test
    void shouldPutTheRequestIdInTheMdcWhileTheRequestRunsAndRemoveItAfter() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/placements/x");
        request.addHeader(RequestIds.HEADER, "abc-123");
        MockHttpServletResponse response = new MockHttpServletResponse();
        AtomicReference<String> seen = new AtomicReference<>();

        new RequestIdFilter().doFilter(request, response, (req, res) -> seen.set(MDC.get(RequestIds.MDC_KEY)));

        assertThat(seen).hasValue("abc-123");
        assertThat(response.getHeader(RequestIds.HEADER)).isEqualTo("abc-123");
        assertThat(MDC.get(RequestIds.MDC_KEY)).isNull();
    }

    @Test
    void shouldGenerateAnIdWhenTheInboundOneIsMissingOrMalformed() {
        assertThat(RequestIds.accept(null)).hasSize(36);
        assertThat(RequestIds.accept("")).hasSize(36);
        assertThat(RequestIds.accept("a\r\nSet-Cookie: x")).hasSize(36).doesNotContain("\n");
        assertThat(RequestIds.accept("x".repeat(65))).hasSize(36);
        assertThat(RequestIds.accept("x".repeat(64))).isEqualTo("x".repeat(64));
        assertThat(RequestIds.accept("A.b_c-9")).isEqualTo("A.b_c-9");
    }
}
