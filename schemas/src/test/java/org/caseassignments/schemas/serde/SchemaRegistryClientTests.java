package org.caseassignments.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SchemaRegistryClientTests {

    private RegistryStub stub;

    @BeforeEach
    void start() throws Exception {
        stub = new RegistryStub();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    @Test
    void shouldRegisterOnceAndServeLaterCallsFromTheCache() {
        SchemaRegistryClient client = new SchemaRegistryClient(stub.url(), null, Duration.ofSeconds(5));

        int first = client.register("case.events-value", CaseCreated.getClassSchema());
        int second = client.register("case.events-value", CaseCreated.getClassSchema());

        assertThat(second).isEqualTo(first);
        assertThat(stub.requests).containsExactly("POST /subjects/case.events-value/versions");
    }

    @Test
    void shouldFetchASchemaByIdOnceAndServeLaterCallsFromTheCache() {
        int id = stub.preRegister(CaseAssignmentChanged.getClassSchema());
        SchemaRegistryClient client = new SchemaRegistryClient(stub.url(), null, Duration.ofSeconds(5));

        assertThat(client.schemaById(id)).isEqualTo(CaseAssignmentChanged.getClassSchema());
        assertThat(client.schemaById(id)).isEqualTo(CaseAssignmentChanged.getClassSchema());

        assertThat(stub.requests).containsExactly("GET /schemas/ids/" + id);
    }

    @Test
    void shouldSendBasicAuthWhenConfigured() {
        SchemaRegistryClient client = new SchemaRegistryClient(stub.url(), "svc:s3cret", Duration.ofSeconds(5));

        client.register("s", CaseCreated.getClassSchema());

        assertThat(stub.authorizations).containsExactly("Basic c3ZjOnMzY3JldA==");
    }

    @Test
    void shouldTellAnUnknownIdFromAnUnavailableRegistry() {
        SchemaRegistryClient client = new SchemaRegistryClient(stub.url(), null, Duration.ofSeconds(5));

        assertThatThrownBy(() -> client.schemaById(999))
                .isInstanceOf(SchemaRegistryClient.SchemaNotFoundException.class)
                .hasMessageContaining("schema id 999");

        stub.failWithStatus = 500;
        assertThatThrownBy(() -> client.schemaById(998))
                .isInstanceOf(SchemaRegistryClient.RegistryException.class)
                .isNotInstanceOf(SchemaRegistryClient.SchemaNotFoundException.class)
                .hasMessageContaining("500");
    }
}
