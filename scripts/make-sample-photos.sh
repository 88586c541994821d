#!/usr/bin/env bash
# Makes the small sample photos in SampleMedia/photos/ (no camera file is copied from elsewhere): a generated
# picture (ImageMagick's plasma, seeded) encoded by filterz's own adapter (libjpeg-turbo, libheif/x265, libpng)
# through the neutral preset, then camera tags written with exiftool. Run from the repository after a debug build:
#   scripts/make-sample-photos.sh
set -euo pipefail
cd "$(dirname "$0")/.."
filterz=.build/debug/filterz
out=SampleMedia/photos
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

convert -size 160x120 -seed 7 plasma:fractal "$work/base.png"
camera=(-IFD0:Make=Filterz "-IFD0:Model=Sample Camera" -ExifIFD:LensModel="Sample Lens 4.2mm f/1.8"
  -ExifIFD:FocalLength=4.2 -ExifIFD:FocalLengthIn35mmFormat=26 -ExifIFD:FNumber=1.8 -ExifIFD:ISO=125
  -ExifIFD:ExposureTime=0.008333333333 "-ExifIFD:DateTimeOriginal=2024:05:01 14:03:22" -ExifIFD:OffsetTimeOriginal=+09:00
  -ExifIFD:SubSecTimeOriginal=120 -ExifIFD:ColorSpace=1 -GPS:GPSLatitudeRef=N -GPS:GPSLatitude=35.658581
  -GPS:GPSLongitudeRef=E -GPS:GPSLongitude=139.745433 -GPS:GPSAltitudeRef=0 -GPS:GPSAltitude=150.5
  "-XMP-dc:Title=Filterz sample photo")

# Portrait JPEG: stored landscape, Orientation 6 (rotate 90° clockwise to view).
"$filterz" photo apply "$work/base.png" --preset neutral -o "$out/portrait-orientation-6.jpg" >/dev/null
exiftool -q -overwrite_original -n "${camera[@]}" -IFD0:Orientation=6 -ExifIFD:ExifImageWidth=160 \
  -ExifIFD:ExifImageHeight=120 "$out/portrait-orientation-6.jpg"

# Progressive JPEG (ImageMagick's JPEG coder is libjpeg-turbo too).
convert "$work/base.png" -interlace JPEG -quality 90 "$out/progressive.jpg"
exiftool -q -overwrite_original -n "${camera[@]}" -IFD0:Orientation=1 "$out/progressive.jpg"

# HEIC as a phone writes it (HEVC through libheif and x265), with EXIF.
"$filterz" photo apply "$work/base.png" --preset neutral -o "$out/camera.heic" >/dev/null
exiftool -q -overwrite_original -n "${camera[@]}" -IFD0:Orientation=1 "$out/camera.heic"

# PNG with an alpha channel and EXIF in an eXIf chunk.
convert "$work/base.png" -resize 80x60 \( -size 80x60 radial-gradient:white-black \) -alpha off \
  -compose copy_opacity -composite "$work/alpha.png"
"$filterz" photo apply "$work/alpha.png" --preset neutral -o "$out/alpha.png" >/dev/null
exiftool -q -overwrite_original -n "${camera[@]}" -IFD0:Orientation=1 "$out/alpha.png"

ls -l "$out"
