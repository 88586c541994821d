// Packaging's types speak in `Timestamp`s; a module that imports Packaging can name them without importing
// MediaTime as well.
@_exported import MediaTime
