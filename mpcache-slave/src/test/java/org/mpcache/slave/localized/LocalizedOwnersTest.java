package org.mpcache.slave.localized;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LocalizedOwnersTest {
  private static final String APP = "application_1_0001";
  private static final String C1 = "container_1_0001_01_000002";
  private LocalizedOwners owners;

  @BeforeEach
  void register() throws AccessControlException {
    owners = new LocalizedOwners(List.of("yarn", "mpcache"));
    owners.containerStarted("yarn", C1, APP, "alice");
  }

  @Test
  void checkTaskCall_containersUserAndApplication_isAllowed() {
    assertDoesNotThrow(() -> owners.checkTaskCall("alice", "requestSpace", APP, C1));
  }

  @Test
  void checkTaskCall_nodeManagerUsers_mayCallForAnyContainer() {
    assertDoesNotThrow(() -> owners.checkTaskCall("yarn", "requestSpace", APP, "container_x"));
    assertDoesNotThrow(() -> owners.checkTaskCall("mpcache", "reportRetained", APP, C1));
  }

  @Test
  void checkTaskCall_anotherUser_isRefusedNamingContainerAndCaller() {
    assertRefused(() -> owners.checkTaskCall("bob", "requestSpace", APP, C1),
        "requestSpace", "bob", C1, APP, "does not run for user bob");
  }

  @Test
  void checkTaskCall_unregisteredContainer_isRefused() {
    assertRefused(() -> owners.checkTaskCall("alice", "requestSpace", APP, "container_9"),
        "container_9", "has not registered");
  }

  @Test
  void checkTaskCall_anotherApplication_isRefused() {
    assertRefused(() -> owners.checkTaskCall("alice", "reportRetained", "application_1_0002", C1),
        "reportRetained", "application_1_0002", "belongs to " + APP);
  }

  @Test
  void checkTaskCall_noAuthenticatedCaller_isRefused() {
    assertRefused(() -> owners.checkTaskCall(null, "requestSpace", APP, C1), C1);
  }

  @Test
  void containerFinished_forgetsTheContainer() throws AccessControlException {
    owners.containerFinished("yarn", C1);
    assertRefused(() -> owners.checkTaskCall("alice", "requestSpace", APP, C1),
        "has not registered");
  }

  @Test
  void applicationFinished_forgetsItsContainersOnly() throws AccessControlException {
    owners.containerStarted("yarn", "container_2", "application_1_0002", "alice");
    owners.applicationFinished("yarn", APP);
    assertRefused(() -> owners.checkTaskCall("alice", "requestSpace", APP, C1),
        "has not registered");
    assertDoesNotThrow(() -> owners.checkTaskCall("alice", "requestSpace", "application_1_0002",
        "container_2"));
  }

  @Test
  void runningOnNode_forgetsContainersNoLongerListedOrOfEndedApplications()
      throws AccessControlException {
    owners.containerStarted("yarn", "container_2", APP, "alice");
    owners.containerStarted("yarn", "container_3", "application_1_0002", "alice");
    owners.runningOnNode("yarn", List.of(APP), List.of("container_2", "container_3"));
    assertRefused(() -> owners.checkTaskCall("alice", "requestSpace", APP, C1),
        "has not registered");
    assertRefused(() -> owners.checkTaskCall("alice", "requestSpace", "application_1_0002",
        "container_3"), "has not registered");
    assertDoesNotThrow(() -> owners.checkTaskCall("alice", "requestSpace", APP, "container_2"));
  }

  @Test
  void nodeManagerCalls_byAnotherUser_areRefusedNamingTheKey() {
    String key = LocalizedConfigKeys.NODEMANAGER_USERS_KEY;
    assertRefused(() -> owners.containerFinished("alice", C1), "containerFinished", "alice", C1,
        key);
    assertRefused(() -> owners.applicationFinished("alice", APP), "applicationFinished", APP, key);
    assertRefused(() -> owners.runningOnNode("alice", List.of(), List.of()), "runningOnNode",
        key);
    assertRefused(() -> owners.containerStarted("bob", "container_3", APP, "bob"),
        "containerStarted", "container_3", key);
    // Nothing changed: alice's container is still hers, bob's was never registered.
    assertDoesNotThrow(() -> owners.checkTaskCall("alice", "requestSpace", APP, C1));
    assertRefused(() -> owners.checkTaskCall("bob", "requestSpace", APP, "container_3"),
        "has not registered");
  }

  private static void assertRefused(org.junit.jupiter.api.function.Executable call,
      String... named) {
    AccessControlException e = assertThrows(AccessControlException.class, call);
    for (String n : named) {
      assertTrue(e.getMessage().contains(n), "names " + n + ": " + e.getMessage());
    }
  }
}
