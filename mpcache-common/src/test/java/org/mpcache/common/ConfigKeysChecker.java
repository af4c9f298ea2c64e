package org.mpcache.common;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Keeps a module's {@code *ConfigKeys} class and {@code mpcache-default.xml} in step: every
 * {@code *_KEY} constant must be described there, with the value of its {@code *_DEFAULT}
 * constant (or an empty value when it has none). Test support, shared through the test jar.
 */
public final class ConfigKeysChecker {

  /** One property of mpcache-default.xml. */
  public static final class Property {
    public final String value;
    public final String description;

    Property(String value, String description) {
      this.value = value;
      this.description = description;
    }
  }

  private ConfigKeysChecker() {
  }

  /** The properties of mpcache-default.xml, by name. */
  public static Map<String, Property> defaults() throws Exception {
    Map<String, Property> out = new LinkedHashMap<>();
    try (InputStream in = ConfigKeysChecker.class.getClassLoader()
        .getResourceAsStream(MpCacheConfigKeys.DEFAULT_RESOURCE)) {
      if (in == null) {
        throw new AssertionError(MpCacheConfigKeys.DEFAULT_RESOURCE + " is not on the classpath");
      }
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = doc.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = text(p, "name");
        if (out.put(name, new Property(text(p, "value"), text(p, "description"))) != null) {
          throw new AssertionError(name + " is described twice");
        }
      }
    }
    return out;
  }

  private static String text(Element e, String tag) {
    NodeList l = e.getElementsByTagName(tag);
    return l.getLength() == 0 ? "" : l.item(0).getTextContent().trim();
  }

  /** The configuration keys a class declares. */
  public static Set<String> keysOf(Class<?> keys) throws IllegalAccessException {
    Set<String> out = new TreeSet<>();
    for (Field f : keys.getDeclaredFields()) {
      if (f.getName().endsWith("_KEY") && Modifier.isStatic(f.getModifiers())
          && f.getType() == String.class) {
        f.setAccessible(true);
        out.add((String) f.get(null));
      }
    }
    return out;
  }

  /**
   * Fails with a list of every disagreement between {@code keys} and mpcache-default.xml.
   */
  public static void assertInSync(Class<?> keys) throws Exception {
    Map<String, Property> xml = defaults();
    StringBuilder problems = new StringBuilder();
    for (Field f : keys.getDeclaredFields()) {
      if (!f.getName().endsWith("_KEY") || !Modifier.isStatic(f.getModifiers())
          || f.getType() != String.class) {
        continue;
      }
      f.setAccessible(true);
      String key = (String) f.get(null);
      Property p = xml.get(key);
      if (p == null) {
        problems.append("\n  ").append(key).append(" is not in mpcache-default.xml");
        continue;
      }
      if (p.description.isEmpty()) {
        problems.append("\n  ").append(key).append(" has no description");
      }
      String base = f.getName().substring(0, f.getName().length() - "_KEY".length());
      String expected = "";
      try {
        Field d = keys.getDeclaredField(base + "_DEFAULT");
        d.setAccessible(true);
        expected = String.valueOf(d.get(null));
      } catch (NoSuchFieldException none) {
        expected = "";
      }
      if (!expected.equals(p.value)) {
        problems.append("\n  ").append(key).append(": mpcache-default.xml says '")
            .append(p.value).append("', ").append(keys.getSimpleName()).append(" says '")
            .append(expected).append("'");
      }
    }
    if (problems.length() > 0) {
      throw new AssertionError(keys.getSimpleName() + " and mpcache-default.xml disagree:"
          + problems);
    }
  }
}
