/** The one typed catalogue of the service's Kafka topics: each name with its key and value serde. */
package org.caseassignments.schemas.topics;
