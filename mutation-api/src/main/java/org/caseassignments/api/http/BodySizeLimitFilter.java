package org.caseassignments.api.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.problem.BodyTooLarge;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps request bodies. The stream fails with {@link BodyTooLarge} on the first read when the declared
 * length is over the limit, and as soon as a chunked body passes it; the message converter's failure
 * then becomes a 413 problem document, like every other error.
 */
final class BodySizeLimitFilter extends OncePerRequestFilter {

    private final long limit;

    BodySizeLimitFilter(long limit) {
        this.limit = limit;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(new LimitedRequest(request, limit), response);
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {
        private final long limit;
        private ServletInputStream stream;

        LimitedRequest(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new LimitedStream(super.getInputStream(), limit, getContentLengthLong() > limit);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(getInputStream(),
                    encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding)));
        }
    }

    private static final class LimitedStream extends ServletInputStream {
        private final ServletInputStream delegate;
        private final long limit;
        private final boolean declaredTooLarge;
        private long read;

        LimitedStream(ServletInputStream delegate, long limit, boolean declaredTooLarge) {
            this.delegate = delegate;
            this.limit = limit;
            this.declaredTooLarge = declaredTooLarge;
        }

        @Override
        public int read() throws IOException {
            check(0);
            int b = delegate.read();
            if (b >= 0) {
                check(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            check(0);
            int n = delegate.read(buffer, offset, length);
            if (n > 0) {
                check(n);
            }
            return n;
        }

        private void check(int justRead) throws BodyTooLarge {
            read += justRead;
            if (declaredTooLarge || read > limit) {
                throw new BodyTooLarge(limit);
            }
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
