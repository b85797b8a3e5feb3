/** The last segment of a path, either separator ("/a/b/" → "b"); the path itself when it has none. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
