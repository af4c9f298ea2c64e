package org.mpcache.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Edits a Hadoop-style {@code *-site.xml} as an operator does by hand: writes a new one, sets
 * properties (one line each, before {@code </configuration>}, replacing a line this class wrote
 * for the same name; commented-out template entries are left alone), removes them. Holds no
 * state; not for concurrent edits of one file.
 */
final class SiteFile {
  private static final String END = "</configuration>";

  private SiteFile() {
  }

  /** A new file holding exactly {@code props}. */
  static void write(Path file, Map<String, String> props) throws IOException {
    Files.writeString(file, "<?xml version=\"1.0\"?>\n<configuration>\n" + END + "\n");
    set(file, props);
  }

  /** Sets each of {@code props}, replacing its earlier value. */
  static void set(Path file, Map<String, String> props) throws IOException {
    String xml = Files.readString(file);
    for (Map.Entry<String, String> p : props.entrySet()) {
      xml = without(xml, p.getKey());
      int end = xml.lastIndexOf(END);
      if (end < 0) {
        throw new IOException(file + " has no " + END);
      }
      xml = xml.substring(0, end) + "  <property><name>" + p.getKey() + "</name><value>"
          + p.getValue() + "</value></property>\n" + xml.substring(end);
    }
    Files.writeString(file, xml);
  }

  /** Removes the properties {@code names}; each must be set in the file. */
  static void remove(Path file, String... names) throws IOException {
    String xml = Files.readString(file);
    for (String name : names) {
      String after = without(xml, name);
      if (after.equals(xml)) {
        throw new IOException(file + " does not set " + name);
      }
      xml = after;
    }
    Files.writeString(file, xml);
  }

  private static String without(String xml, String name) {
    return Pattern.compile("(?m)^  <property><name>" + Pattern.quote(name)
        + "</name><value>.*</value></property>\n").matcher(xml).replaceAll("");
  }
}
